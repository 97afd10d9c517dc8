/**
 * The segm results kernel (results-kernel.wat) against the JavaScript reader: readResults of the same file
 * both ways gives the same columns, areas, boxes and kept mask strings bit for bit, or the same error (the
 * kernel leaves anything but the plain case to the JavaScript reader).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeString } from '@cvdevkit/rle';
import { makeTempDir, removeTempDirs } from '@cvdevkit/test-utils';
import type { GroundTruth, Results } from './dataset.js';
import { readResults } from './load.js';
import { readSegmResultsWithKernel, type KernelResults } from './results-kernel.js';
import { measureCompressed } from './segmentation.js';

afterAll(() => removeTempDirs());

const gt = { file: 'gt.json', imageIds: Float64Array.of(1, 2, 3, 1000000000000) } as unknown as GroundTruth;
const keepMask = (imageId: number, categoryId: number): boolean => (imageId + categoryId) % 3 !== 0;

type Outcome = { r: Results } | { error: string };

/** readResults of an evaluation (keepMask set), with the JavaScript reader (`kernel` false) or the kernel where it answers. */
function load(file: string, kernel: boolean): Outcome {
  try {
    return { r: readResults(file, gt, { measureMask: measureCompressed(file), keepMask, javascriptReader: !kernel }) };
  } catch (e) {
    return { error: String(e instanceof Error ? `${e.message} ${JSON.stringify(e)}` : e) };
  }
}

function sameBits(a: ArrayLike<number> | undefined, b: ArrayLike<number> | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

/** Both readings the same: the error, or every column bit for bit and the kept strings byte for byte. */
function expectSame(js: Outcome, fast: Outcome): void {
  if ('error' in js || 'error' in fast) {
    expect(fast).toEqual(js);
    return;
  }
  const a = js.r, b = fast.r;
  expect([b.kind, b.count]).toEqual([a.kind, a.count]);
  for (const k of ['imageId', 'categoryId', 'score', 'area', 'bbox', 'hasSegmentation'] as const) expect(sameBits(b[k], a[k]), k).toBe(true);
  expect(sameBits(b.maskBoxes, a.maskBoxes), 'maskBoxes').toBe(true);
  const ma = a.maskBytes, mb = b.maskBytes;
  expect(mb === undefined).toBe(ma === undefined);
  if (ma === undefined || mb === undefined) return;
  expect(sameBits(mb.length.subarray(0, b.count), ma.length.subarray(0, a.count))).toBe(true);
  expect(sameBits(mb.h.subarray(0, b.count), ma.h.subarray(0, a.count))).toBe(true);
  expect(sameBits(mb.w.subarray(0, b.count), ma.w.subarray(0, a.count))).toBe(true);
  for (let i = 0; i < a.count; i++) {
    if (ma.length[i] < 0) continue;
    const x = ma.bytes.subarray(ma.start[i], ma.start[i] + ma.length[i]);
    const y = mb.bytes.subarray(mb.start[i], mb.start[i] + mb.length[i]);
    expect(Buffer.from(y).equals(Buffer.from(x))).toBe(true);
  }
}

/** The kernel's reading through a small window equals its reading through the default one (or leaves the file, where a record does not fit). */
function expectSameThroughWindows(file: string, whole: KernelResults): void {
  for (const bytes of [97, 256, 1000]) {
    const k = readSegmResultsWithKernel(file, keepMask, bytes);
    if (k === undefined) continue;
    const a = whole.c, b = k.c;
    expect(b.count).toBe(a.count);
    for (const f of ['image_id', 'category_id', 'score']) expect(sameBits(b.numbers[f], a.numbers[f]), f).toBe(true);
    const ra = a.rles.segmentation, rb = b.rles.segmentation;
    for (const f of ['h', 'w', 'length'] as const) expect(sameBits(rb[f], ra[f]), f).toBe(true);
    expect(sameBits(k.area, whole.area) && sameBits(k.box, whole.box)).toBe(true);
    for (let i = 0; i < a.count; i++) {
      if (ra.length[i] < 0) continue;
      expect(Buffer.from(rb.bytes.subarray(rb.start[i], rb.start[i] + rb.length[i])).equals(Buffer.from(ra.bytes.subarray(ra.start[i], ra.start[i] + ra.length[i])))).toBe(true);
    }
  }
}

describe('the segm results WebAssembly kernel', () => {
  const dir = makeTempDir('coco-results-kernel-');
  let files = 0;
  const write = (text: string): string => {
    const file = join(dir, `r${files++}.json`);
    writeFileSync(file, text);
    return file;
  };

  it('is the assembled results-kernel.wat (src/results-kernel-wasm.ts is up to date)', async () => {
    // @ts-expect-error: a build script without types
    const { assemble, moduleText } = await import('../../../scripts/wat-module.mjs');
    const wat = fileURLToPath(new URL('./results-kernel.wat', import.meta.url));
    expect(readFileSync(new URL('./results-kernel-wasm.ts', import.meta.url), 'utf8')).toBe(moduleText(wat, 'RESULTS_KERNEL_WASM', 'the COCO results WebAssembly kernel', await assemble(wat)));
  });

  it('reads the plain case as the JavaScript reader does, and leaves anything else to it', () => {
    const seg = (counts: string, h = 2, w = 3) => ({ size: [h, w], counts });
    const compact = JSON.stringify([
      { image_id: 1, category_id: 1, segmentation: seg(encodeString({ h: 2, w: 3, counts: Uint32Array.of(1, 3, 2) })), score: 0.5 },
      { score: -0.0, segmentation: seg(encodeString({ h: 2, w: 3, counts: Uint32Array.of(0, 6) })), category_id: 7, image_id: 2 },
      { image_id: 3, category_id: 3, score: 1.5e-7, segmentation: seg(encodeString({ h: 40, w: 40, counts: Uint32Array.of(100, 1300, 200) }), 40, 40) },
      { image_id: 1000000000000, category_id: 1, score: Math.sqrt(0.9), segmentation: seg(encodeString({ h: 2, w: 3, counts: Uint32Array.of(6) })) },
    ]);
    const spaced = (text: string) => text.replace(/,/g, ' ,\n\t');
    const clean = spaced(compact);
    const file = write(clean);
    expect(readSegmResultsWithKernel(file, keepMask)).toBeDefined();
    expectSameThroughWindows(file, readSegmResultsWithKernel(file, keepMask)!);
    // a window that cuts records: each read again from its start
    expect(readSegmResultsWithKernel(file, keepMask, 256)).toBeDefined();
    expectSame(load(file, false), load(file, true));
    // the mask strings kept and dropped as keepMask says
    const r = load(file, true);
    expect('r' in r && Array.from(r.r.maskBytes!.length).map((x) => x >= 0)).toEqual([true, false, false, true]);
    // a backslash in a counts string (JSON's `\\`) is a character of the string
    const slash = write(JSON.stringify([{ image_id: 1, category_id: 1, score: 1, segmentation: seg(encodeString({ h: 30, w: 30, counts: Uint32Array.of(300, 300, 300) }), 30, 30) }]));
    expect(readFileSync(slash, 'utf8')).toContain('\\\\');
    expect(readSegmResultsWithKernel(slash, keepMask)).toBeDefined();
    expectSame(load(slash, false), load(slash, true));
    // read by the kernel, the error after it the same: a result on an image not in the ground truth
    const unknown = write(spaced(compact.replace('"image_id":1,', '"image_id":9,')));
    expect(readSegmResultsWithKernel(unknown, keepMask)).toBeDefined();
    expectSame(load(unknown, false), load(unknown, true));
    // left to the JavaScript reader (the same errors or values)
    for (const text of [
      spaced(compact.replace('"score"', '"bbox":[1,2,3,4],"score"')),
      spaced(compact.replace('"score"', '"extra":1,"score"')),
      spaced(compact.replace('0.5', 'NaN')),
      spaced(compact.replace('0.5', '05')),
      spaced(compact.replace('0.5', '"0.5"')),
      spaced(compact.replace('"image_id":1,', '"image_id":1.0,')),
      spaced(compact.replace('"size":[2,3]', '"size":[3,3]')),
      spaced(compact.replace('"size":[2,3]', '"size":[0,3]')),
      spaced(compact.replace(/"counts":"/, '"counts":"\\u0031')),
      spaced(compact.replace(/"counts":"/, '"counts":"~')),
      spaced(compact.replace(/\]$/, '')),
      clean + 'x',
      '[]',
      '',
    ]) {
      const f = write(text);
      expect(readSegmResultsWithKernel(f, keepMask), text).toBeUndefined();
      expectSame(load(f, false), load(f, true));
    }
  });

  it('equals the JavaScript reader bit for bit, or leaves the file to it (fuzz)', () => {
    const ws = fc.constantFrom('', '', ' ', '\n', '\t', '\r\n  ');
    const score = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => JSON.stringify(x)),
      fc.integer({ min: 0, max: 999 }).map((x) => (x / 1000).toString()),
      fc.tuple(fc.boolean(), fc.stringMatching(/^(0|[1-9][0-9]{0,20})$/), fc.stringMatching(/^[0-9]{1,25}$/)).map(([neg, i, f]) => `${neg ? '-' : ''}${i}.${f}`),
      fc.constantFrom('0', '-0', '1', '1e-3', '1E+2', '-0.0', '9007199254740993', '00', '1.', '.5', '-', 'Infinity', '1e400'),
    );
    const mask = fc.record({ h: fc.integer({ min: 1, max: 40 }), w: fc.integer({ min: 1, max: 40 }), cuts: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 12 }) }).map(({ h, w, cuts }) => {
      const n = h * w;
      const at = [...new Set(cuts.map((c) => Math.floor(c * n)))].sort((a, b) => a - b);
      const counts: number[] = [];
      let last = 0;
      for (const x of at) {
        counts.push(x - last);
        last = x;
      }
      counts.push(n - last);
      return { h, w, counts: encodeString({ h, w, counts: Uint32Array.from(counts) }) };
    });
    const record = fc.record({
      image: fc.constantFrom(1, 2, 3, 2, 1000000000000),
      category: fc.integer({ min: 0, max: 99 }),
      score,
      mask,
      order: fc.integer({ min: 0, max: 23 }),
      odd: fc.integer({ min: 0, max: 40 }),
      gaps: fc.array(ws, { minLength: 12, maxLength: 12 }),
    });
    let answered = 0;
    let runs = 0;
    fc.assert(
      fc.property(fc.array(record, { minLength: 1, maxLength: 6 }), fc.boolean(), (records, clean) => {
        const text =
          '[' +
          records
            .map(({ image, category, score, mask, order, odd, gaps }) => {
              const g = (k: number) => gaps[k];
              const o = clean ? -1 : odd;
              const counts = o === 1 ? mask.counts.slice(0, -1) : o === 2 ? mask.counts + '~' : mask.counts;
              const size = o === 3 ? `[${mask.h},${mask.w + 1}]` : `[${g(0)}${mask.h}${g(1)},${g(2)}${mask.w}]`;
              const members = [
                `"image_id"${g(3)}:${g(4)}${o === 4 ? 7 : image}`,
                `"category_id":${o === 5 ? -category : category}`,
                `"score"${g(5)}:${score}`,
                `"segmentation":${g(6)}{${g(7)}"size":${size}${g(8)},"counts":${g(9)}${JSON.stringify(counts)}}`,
              ];
              if (o === 6) members.push('"bbox":[0,0,1,1]');
              if (o === 7) members.push('"area":3');
              // one of the 24 orders of the four keys
              const rest = [...members];
              const ordered: string[] = [];
              let r = order;
              for (let k = rest.length; k > 0; k--) {
                ordered.push(...rest.splice(r % k, 1));
                r = Math.floor(r / k);
              }
              ordered.push(...rest);
              return `${g(10)}{${ordered.join(`${g(11)},`)}}`;
            })
            .join(',') +
          ']';
        const file = write(text);
        runs++;
        const whole = readSegmResultsWithKernel(file, keepMask);
        if (whole !== undefined) {
          answered++;
          expectSameThroughWindows(file, whole);
        }
        expectSame(load(file, false), load(file, true));
      }),
      { numRuns: 300 },
    );
    expect(answered).toBeGreaterThan(runs / 4);
  });
});
