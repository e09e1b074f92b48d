import { existsSync, readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** The page's files: plain HTML, CSS and one ES module, read once (no build step, no CDN). */
const ASSETS = {
  'index.html': 'text/html; charset=utf-8',
  'explore.css': 'text/css; charset=utf-8',
  'explore.js': 'text/javascript; charset=utf-8',
} as const;

/**
 * Same-origin only: the page calls this server's /v2 with the key the user gave it (kept in
 * the browser's localStorage, never in the page's URL the server sees); product images may
 * come from any https host.
 */
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' https: data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * `/explore`: the catalog explorer, public (the page itself needs no key). `npm start`
 * prints a link with the demo key in the URL fragment (`#key=…`), which browsers never send
 * to a server; the page moves it to localStorage and clears the fragment.
 */
export const explorePlugin = fp(
  async (app: FastifyInstance) => {
    // beside this module when run from source; a compiled dist/explore/ reads the package's src/
    const dir = [
      new URL('./assets/', import.meta.url),
      new URL('../../src/explore/assets/', import.meta.url),
    ].find((candidate) => existsSync(new URL('index.html', candidate)));
    if (!dir) throw new Error('src/explore/assets/ is missing: the explorer page cannot be served');
    const files = new Map<string, { body: Buffer; type: string }>();
    for (const [name, type] of Object.entries(ASSETS))
      files.set(name, { body: readFileSync(new URL(name, dir)), type });
    const send = (name: keyof typeof ASSETS) => {
      const file = files.get(name) as { body: Buffer; type: string };
      return async (_request: unknown, reply: import('fastify').FastifyReply) =>
        reply
          .type(file.type)
          .header('Content-Security-Policy', CSP)
          .header('X-Content-Type-Options', 'nosniff')
          .header('Referrer-Policy', 'no-referrer')
          .header('Cache-Control', 'no-cache')
          .send(file.body);
    };
    const options = { config: { public: true }, schema: { hide: true } };
    app.get('/explore', options, send('index.html'));
    app.get('/explore/explore.css', options, send('explore.css'));
    app.get('/explore/explore.js', options, send('explore.js'));
  },
  { name: 'shelf-explore' },
);
