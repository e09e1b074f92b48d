/** A small fetch wrapper for end-to-end tests against a listening server. */
export async function get(
  base: string,
  path: string,
  key?: string | null,
  headers: Record<string, string> = {},
) {
  const response = await fetch(new URL(path, base), {
    headers: { ...(key ? { 'x-api-key': key } : {}), ...headers },
  });
  const text = await response.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return {
    status: response.status,
    headers: response.headers,
    body: body as Record<string, unknown> & { data?: unknown },
  };
}
