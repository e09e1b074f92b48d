// Runs the compiled build when there is one (npm run build), else the TypeScript source through tsx.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** `entry` is a path under src/ without its extension, e.g. `cli/main`. */
export async function launch(entry) {
  const compiled = new URL(`../dist/${entry}.js`, import.meta.url);
  if (existsSync(compiled)) {
    await import(compiled.href);
  } else {
    const { register } = await import('tsx/esm/api');
    // the repository's tsconfig maps @shelf/client to its source, whatever the working directory
    register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
    await import(new URL(`../src/${entry}.ts`, import.meta.url).href);
  }
}
