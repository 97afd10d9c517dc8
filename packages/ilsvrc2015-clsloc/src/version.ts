/** This package's name and version, read from its package.json (one level above src/ and dist/). */
import { readPackageIdentity } from '@cvdevkit/core';

const identity = readPackageIdentity(new URL('../package.json', import.meta.url));
export const PACKAGE_NAME: string = identity.name;
export const PACKAGE_VERSION: string = identity.version;
