/** The package name and version (from package.json), for report `versions` and the annotation cache key. */
import { readPackageIdentity } from '@cvdevkit/core';

const identity = readPackageIdentity(new URL('../package.json', import.meta.url));
export const PACKAGE_NAME = identity.name;
export const PACKAGE_VERSION = identity.version;
