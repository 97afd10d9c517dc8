/**
 * A package's name and version, read from its own package.json: the one source of a plugin's version (for
 * `meta.version`, report `versions` and cache keys), so that a `changeset version` bump can never leave a
 * hard-coded copy behind.
 */
import { readFileSync } from 'node:fs';

export interface PackageIdentity {
  name: string;
  version: string;
}

/** Reads `{ name, version }` from the package.json at `packageJson` (a file URL, e.g. `new URL('../package.json', import.meta.url)`). */
export function readPackageIdentity(packageJson: URL): PackageIdentity {
  const pkg = JSON.parse(readFileSync(packageJson, 'utf8')) as { name?: unknown; version?: unknown };
  if (typeof pkg.name !== 'string' || typeof pkg.version !== 'string') throw new Error(`${packageJson.pathname}: package.json without a name and version`);
  return { name: pkg.name, version: pkg.version };
}
