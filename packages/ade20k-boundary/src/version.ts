/** This package's name and version, read from its package.json (the same from src/ and dist/), for report `versions` and counts files. */
import { readPackageIdentity } from '@cvdevkit/core';

const identity = readPackageIdentity(new URL('../package.json', import.meta.url));
export const PACKAGE_NAME: string = identity.name;
export const PACKAGE_VERSION: string = identity.version;
