import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readPackageIdentity } from './package-identity.js';

describe('readPackageIdentity', () => {
  it("reads core's own name and version", () => {
    const url = new URL('../package.json', import.meta.url);
    const pkg = JSON.parse(readFileSync(url, 'utf8'));
    expect(readPackageIdentity(url)).toEqual({ name: '@cvdevkit/core', version: pkg.version });
  });
});
