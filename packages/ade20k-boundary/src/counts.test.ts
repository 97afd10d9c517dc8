import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { isDevkitError } from '@cvdevkit/core';
import {
  countsToFile,
  entryKey,
  mergeCountSets,
  parseCountsFile,
  readAndMergeCountsFiles,
  readCountsFile,
  resolveCountsFiles,
  storeCounts,
  type StoredCounts,
  writeCountsFile,
  type BoundaryCountSet,
} from './counts.js';
import { makeTempDir } from '@cvdevkit/test-utils';

const N = 5;
const thresholds = Float64Array.from([0.1, 0.2, 0.3, 0.4, 0.5]);

function counts(cls: number, seed: number, zeroGt = false): StoredCounts {
  const f = (k: number) => Float64Array.from({ length: N }, (_, i) => (zeroGt && k < 3 ? 0 : (seed * 7 + i * 3 + k) % 11));
  return storeCounts(cls, { cntR: f(0), sumR: f(1), cntP: f(2), sumP: f(3) });
}

function fullSet(images = ['a', 'b', 'c'], classes = [1, 2, 150]): BoundaryCountSet {
  const entries = new Map<string, StoredCounts>();
  images.forEach((_, im) => classes.forEach((c) => entries.set(entryKey(im, c), counts(c, im * 1000 + c, c === 2))));
  return { seed: 12345, thresholds, images, classes, entries };
}

function subset(set: BoundaryCountSet, keep: (key: string, i: number) => boolean, shard?: { index: number; count: number }): BoundaryCountSet {
  const entries = new Map([...set.entries].filter(([k], i) => keep(k, i)));
  return { ...set, entries, ...(shard ? { shard } : {}) };
}

function inputMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (isDevkitError(e) && e.kind === 'input') return e.message;
    throw e;
  }
  throw new Error('no error');
}

const tmp = () => makeTempDir('ade20k-counts-');

describe('counts files', () => {
  it('round-trip through JSON and gzip, leaving all-zero arrays out', () => {
    const set = fullSet();
    const dir = tmp();
    for (const name of ['c.json', 'c.json.gz']) {
      const path = join(dir, 'sub', name);
      writeCountsFile(path, set, 'test');
      const back = readCountsFile(path);
      expect(back.seed).toBe(12345);
      expect(Array.from(back.thresholds)).toEqual(Array.from(thresholds));
      expect(back.images).toEqual(set.images);
      expect(back.classes).toEqual(set.classes);
      expect(back.entries.size).toBe(set.entries.size);
      for (const [k, c] of set.entries) {
        const d = back.entries.get(k)!;
        for (const f of ['cntR', 'sumR', 'cntP', 'sumP'] as const) expect(d[f]).toEqual(c[f]);
      }
    }
    const file = countsToFile(set);
    const e = file.entries.find((x) => x.class === 2)!;
    expect(e.cntR).toBeUndefined();
    expect(e.sumP).toHaveLength(N);
    expect(set.entries.get(entryKey(0, 2))!.cntR).toBeNull();
    expect(readFileSync(join(dir, 'sub', 'c.json.gz'))[0]).toBe(0x1f);
  });

  it('reject malformed files with the file and field named', () => {
    const good = JSON.stringify(countsToFile(fullSet()));
    expect(inputMessage(() => parseCountsFile('{', 'x.json'))).toMatch(/^x\.json: .*invalid JSON/);
    expect(inputMessage(() => parseCountsFile('{"format":"other"}', 'x.json'))).toMatch(/x\.json \[format\]/);
    const broken = JSON.parse(good);
    broken.entries[0].sumP = [1, 2];
    expect(inputMessage(() => parseCountsFile(JSON.stringify(broken), 'y.json'))).toMatch(/y\.json \[entries\[0\]\.sumP\]: expected 5 non-negative integers/);
    const dup = JSON.parse(good);
    dup.entries.push(dup.entries[0]);
    expect(inputMessage(() => parseCountsFile(JSON.stringify(dup), 'z.json'))).toMatch(/second entry for a class_001/);
    expect(inputMessage(() => readCountsFile(join(tmp(), 'nope.json')))).toMatch(/no such file/);
  });
});

describe('mergeCountSets', () => {
  it('gives back the whole set from any partition into shards (property)', () => {
    const set = fullSet();
    const keys = [...set.entries.keys()];
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 3 }), { minLength: keys.length, maxLength: keys.length }), (owner) => {
        const parts = [0, 1, 2, 3].map((s) => ({ file: `s${s}`, set: subset(set, (_k, i) => owner[i] === s) }));
        const merged = mergeCountSets(parts);
        return merged.entries.size === set.entries.size && keys.every((k) => merged.entries.get(k) === set.entries.get(k));
      }),
      { numRuns: 50 },
    );
  });

  it('accepts an identical unit in two files but reports conflicting counts', () => {
    const set = fullSet();
    const a = subset(set, () => true);
    const b = subset(set, (_k, i) => i < 2);
    expect(mergeCountSets([{ file: 'a', set: a }, { file: 'b', set: b }]).entries.size).toBe(9);
    const c = subset(set, (_k, i) => i === 0);
    c.entries.set(entryKey(0, 1), counts(1, 999));
    expect(inputMessage(() => mergeCountSets([{ file: 'a', set: a }, { file: 'c', set: c }]))).toMatch(/c \[a class_001\]: expected the same counts as in a/);
  });

  it('reports missing units, naming the first ones and the shards given', () => {
    const set = fullSet();
    const s1 = subset(set, (_k, i) => i < 3, { index: 1, count: 3 });
    const s3 = subset(set, (_k, i) => i >= 6, { index: 3, count: 3 });
    const msg = inputMessage(() => mergeCountSets([{ file: 's1.json', set: s1 }, { file: 's3.json', set: s3 }]));
    expect(msg).toMatch(/3 missing \(first: b class_001; b class_002; b class_150\); shards given: 1\/3, 3\/3/);
  });

  it('refuses sets of different evaluations (seed, images, classes, thresholds), listing all', () => {
    const a = fullSet();
    const b = { ...fullSet(['a', 'b', 'd']), seed: 1 };
    const msg = inputMessage(() => mergeCountSets([{ file: 'a.json', set: a }, { file: 'b.json', set: b }]));
    expect(msg).toMatch(/b\.json \[seed\]: expected 12345 \(as in a\.json\), found 1/);
    expect(msg).toMatch(/b\.json \[images\]/);
    const c = { ...fullSet(['a', 'b', 'c'], [1, 2]) };
    expect(inputMessage(() => mergeCountSets([{ file: 'a.json', set: a }, { file: 'c.json', set: c }]))).toMatch(/\[classes\]/);
    const d = { ...fullSet(), thresholds: Float64Array.from([0.1, 0.2, 0.3, 0.4, 0.6]) };
    expect(inputMessage(() => mergeCountSets([{ file: 'a.json', set: a }, { file: 'd.json', set: d }]))).toMatch(/\[thresholds\]/);
  });

  it('reads a folder or a comma-separated list of files', () => {
    const dir = tmp();
    const set = fullSet();
    writeCountsFile(join(dir, 'p1.json'), subset(set, (_k, i) => i < 4, { index: 1, count: 2 }));
    writeCountsFile(join(dir, 'p2.json.gz'), subset(set, (_k, i) => i >= 4, { index: 2, count: 2 }));
    writeFileSync(join(dir, 'notes.txt'), 'ignored');
    expect(resolveCountsFiles(dir)).toEqual([join(dir, 'p1.json'), join(dir, 'p2.json.gz')]);
    expect(readAndMergeCountsFiles(resolveCountsFiles(dir)).entries.size).toBe(9);
    expect(readAndMergeCountsFiles(resolveCountsFiles(`${join(dir, 'p1.json')}, ${join(dir, 'p2.json.gz')}`)).entries.size).toBe(9);
    expect(inputMessage(() => resolveCountsFiles(tmp()))).toMatch(/none/);
  });
});

describe('storeCounts', () => {
  it('keeps integer arrays and null for all-zero ones; rejects non-integers', () => {
    const s = storeCounts(3, { cntR: [0, 0], sumR: [1, 2], cntP: [0, 0], sumP: [5, 0] });
    expect(s).toEqual({ cls: 3, cntR: null, sumR: Int32Array.from([1, 2]), cntP: null, sumP: Int32Array.from([5, 0]) });
    expect(() => storeCounts(1, { cntR: [0.5], sumR: [0], cntP: [0], sumP: [0] })).toThrow(RangeError);
  });
});
