/** The package name and version, for report `versions` and the annotation cache key. */
export const PACKAGE_NAME = '@cvdevkit/voc2010';
export const PACKAGE_VERSION = '0.1.0';
