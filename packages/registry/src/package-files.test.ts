// childPath is path.join for the normalized folders discovery passes it (property test against join itself).
import fc from 'fast-check';
import { join, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { childPath } from './package-files.js';

const segment = fc.oneof(fc.constantFrom('', '.', '..', 'a', '@scope', 'node_modules', 'package.json', 'x/y', `x${sep}y`, './a', 'a/'), fc.string({ maxLength: 6 }));

describe('childPath', () => {
  it('equals join(dir, name) for a normalized absolute dir', () => {
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 4 }), segment, (parts, name) => {
        const dir = resolve(sep, ...parts);
        expect(childPath(dir, name)).toBe(join(dir, name));
      }),
      { numRuns: 300 },
    );
  });
});
