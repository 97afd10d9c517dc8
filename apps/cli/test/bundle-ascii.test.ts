/**
 * The bundle is ASCII (scripts/bundle.mjs escapes what esbuild leaves in regexes and comments): one non-ASCII
 * character makes V8 hold the whole file's source as a two-byte string, in every command that loads it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const bundle = resolve(fileURLToPath(import.meta.url), '../../bundle');

describe('the CLI bundle', () => {
  it('has only ASCII characters in its code files', () => {
    const files = readdirSync(bundle).filter((f) => /\.(mjs|cjs|js)$/.test(f));
    expect(files.length).toBeGreaterThan(3);
    const found = files.flatMap((f) => {
      const m = /[^\t-\x7f]/.exec(readFileSync(join(bundle, f), 'utf8'));
      return m ? [`${f}: ${JSON.stringify(m[0])} at ${m.index}`] : [];
    });
    expect(found).toEqual([]);
  });
});
