/**
 * What a publishable key may call: the catalog's GET endpoints and the two search POSTs.
 * Everything else (MCP sessions, any other write-like method) needs a secret key.
 * `route` is the route's pattern (e.g. `/v2/products/:id`), not the raw URL.
 */
export function publishableMayCall(method: string, route: string): boolean {
  if (!route.startsWith('/v2/')) return false;
  if (method === 'GET' || method === 'HEAD') return true;
  return method === 'POST' && (route === '/v2/products/search' || route === '/v2/products/semantic-search');
}

/**
 * An Origin as browsers send it: `scheme://host[:port]`, lower case, default ports dropped.
 * Null for anything else (including the literal `null` of sandboxed frames).
 */
export function normalizeOrigin(value: string): string | null {
  try {
    const url = new URL(value.trim());
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.origin.toLowerCase();
  } catch {
    return null;
  }
}
