// The subpath, not the package's index: `cvdevkit --version` answers before the rest of core is imported.
import { readPackageIdentity } from '@cvdevkit/core/package-identity';

/** The CLI's own version (its package.json; `bundle/` and `dist/` both sit one level below it). */
export function cliVersion(): string {
  return readPackageIdentity(new URL('../package.json', import.meta.url)).version;
}
