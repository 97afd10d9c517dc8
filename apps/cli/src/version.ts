// Read here rather than through @cvdevkit/core's readPackageIdentity: `cvdevkit --version` is answered by bin.js
// alone, without resolving or loading any other module (see scripts/bundle.mjs).
import { readFileSync } from 'node:fs';

/** The CLI's own version (its package.json; `bundle/` and `dist/` both sit one level below it). */
export function cliVersion(): string {
  const file = new URL('../package.json', import.meta.url);
  const pkg = JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown };
  if (typeof pkg.version !== 'string') throw new Error(`${file.pathname}: package.json without a version`);
  return pkg.version;
}
