/** Counts files (JSON and gzip) against mutated bytes: a counts set or an input DevkitError (exit 2), nothing else. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { isDevkitError } from '@cvdevkit/core';
import { makeTempDir, removeTempDirs } from '@cvdevkit/test-utils';
import { countsToFile, entryKey, parseCountsFile, readCountsFile, storeCounts, type BoundaryCountSet, type StoredCounts } from './counts.js';

afterAll(removeTempDirs);

const entries = new Map<string, StoredCounts>();
for (let im = 0; im < 2; im++) for (const c of [1, 7]) entries.set(entryKey(im, c), storeCounts(c, { cntR: [1, 2, 3], sumR: [4, 5, 6], cntP: [0, 1, 0], sumP: [2, 2, 2] }));
const set: BoundaryCountSet = { seed: 1, thresholds: Float64Array.from([0.1, 0.5, 0.9]), images: ['a', 'b'], classes: [1, 7], entries };
const TEXT = Buffer.from(JSON.stringify(countsToFile(set)));

function mutated(valid: Uint8Array): fc.Arbitrary<Buffer> {
  const edit = fc.record({ at: fc.nat(valid.length), byte: fc.integer({ min: 0, max: 255 }), cut: fc.boolean() });
  return fc.array(edit, { minLength: 1, maxLength: 5 }).map((edits) => {
    let b = Buffer.from(valid);
    for (const e of edits) {
      if (e.cut) b = b.subarray(0, Math.min(e.at, b.length));
      else if (e.at < b.length) b[e.at] = e.byte;
    }
    return b;
  });
}

function check(fn: () => unknown): void {
  try {
    fn();
  } catch (e) {
    if (!isDevkitError(e) || e.exitCode !== 2) throw e;
    expect(e.message).not.toMatch(/Unexpected token|in JSON at position|unexpected end of file|incorrect header check/);
  }
}

describe('counts files under mutated bytes', () => {
  it('JSON text', () => {
    fc.assert(fc.property(mutated(TEXT), (b) => check(() => parseCountsFile(b.toString('utf8'), 'c.json'))), { numRuns: 400 });
  });

  it('gzip files on disk', () => {
    const dir = makeTempDir('cvdevkit-counts-fuzz-');
    const file = join(dir, 'c.json.gz');
    fc.assert(
      fc.property(mutated(gzipSync(TEXT)), (b) => {
        writeFileSync(file, b);
        check(() => readCountsFile(file));
      }),
      { numRuns: 200 },
    );
  });

  it('a bad count value is shown with its position', () => {
    const o = countsToFile(set) as unknown as { entries: { cntR?: unknown[] }[] };
    o.entries[0].cntR = [1, -3, 2];
    expect(() => parseCountsFile(JSON.stringify(o), 'c.json')).toThrow(/found an array of 3 with -3 at position 2/);
  });
});
