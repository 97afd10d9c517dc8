import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeIndexedPng } from '@cvdevkit/formats/png';
import { scanSegBatch, segItems, type SegFolders, type SegItem } from './scan.js';

const tmp = mkdtempSync(join(tmpdir(), 'cvdevkit-seg-scan-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('scanSegBatch', () => {
  it('a folder listing taken before files came or went changes nothing (those files are read the ordinary way)', () => {
    const gtDir = join(tmp, 'gt');
    const resDir = join(tmp, 'res');
    mkdirSync(gtDir);
    mkdirSync(resDir);
    const put = (dir: string, id: string, data: number[]) => writeFileSync(join(dir, `${id}.png`), encodeIndexedPng({ width: 3, height: 2, data }));
    put(gtDir, 'a', [0, 0, 1, 1, 255, 2]);
    put(resDir, 'a', [0, 1, 1, 1, 3, 2]);
    const items: SegItem[] = ['a', 'b', 'c'].map((id) => ({ id, gtFile: join(gtDir, `${id}.png`), resFile: join(resDir, `${id}.png`) }));
    const stale: SegFolders = new Map();
    // listed now: only 'a' is there; 'b' comes afterwards, 'c' never has a result
    scanSegBatch(items.slice(0, 1), stale);
    put(gtDir, 'b', [4, 4, 4, 0, 0, 0]);
    put(resDir, 'b', [4, 4, 0, 0, 0, 0]);
    put(gtDir, 'c', [1, 1, 1, 1, 1, 1]);
    const fresh = scanSegBatch(items, new Map());
    const got = scanSegBatch(items, stale);
    expect(Array.from(got.hist)).toEqual(Array.from(fresh.hist));
    expect(got.pixels).toBe(11);
    expect(got.problems).toEqual(fresh.problems);
    expect(got.problems.map((p) => p.file)).toEqual([join(resDir, 'c.png')]);
    // 'a' listed but gone: the ordinary read gives its message
    rmSync(join(resDir, 'a.png'));
    const gone = scanSegBatch(items.slice(0, 1), stale);
    expect(gone.problems).toEqual(scanSegBatch(items.slice(0, 1), new Map()).problems);
    expect(gone.problems.map((p) => p.file)).toEqual([join(resDir, 'a.png')]);
  });
});

describe('segItems', () => {
  it("gives join(dir, `${id}.png`) for every id and folder, separators and dots included", () => {
    const piece = fc.constantFrom('', '.', '..', '/', '//', '\\', 'a', 'b c', '2010_000001', ':', '.png');
    const text = fc.array(piece, { maxLength: 5 }).map((p) => p.join(''));
    fc.assert(
      fc.property(text, text, fc.array(text, { maxLength: 4 }), fc.boolean(), (gtDir, resultDir, ids, perImage) => {
        const want = ids.map((id) => ({ id, gtFile: join(gtDir, `${id}.png`), resFile: join(resultDir, `${id}.png`), ...(perImage ? { perImage } : {}) }));
        expect(segItems(ids, { gtDir, resultDir }, perImage)).toEqual(want);
      }),
      { numRuns: 200 },
    );
  });
});
