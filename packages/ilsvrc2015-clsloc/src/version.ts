import { readFileSync } from 'node:fs';

/** This package's name and version, read from its package.json (one level above src/ and dist/). */
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { name: string; version: string };

export const PACKAGE_NAME: string = pkg.name;
export const PACKAGE_VERSION: string = pkg.version;
