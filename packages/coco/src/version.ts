/** This package's version (its own module, so that loading the plugin's index does not load the evaluation). */
import { readPackageIdentity } from '@cvdevkit/core';

export const PACKAGE_VERSION: string = readPackageIdentity(new URL('../package.json', import.meta.url)).version;
