/** Members of a JSON feed document that hold the array of items (`{"products": [...]}`). */
export const WRAPPERS: readonly string[] = ['products', 'items', 'entries', 'resources'];
