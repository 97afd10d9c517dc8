import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDirs } from '@cvdevkit/test-utils';
import fc from 'fast-check';
import { ProblemCollector } from '@cvdevkit/core';
import { averagePrecisionArea } from '@cvdevkit/metrics';
import { CLS_SPEC, evaluateScoredList, readScoredInputs, scoresInListOrder } from './cls.js';
import { parseLabelledList } from './image-sets.js';
import { parseClsResults } from './results.js';

describe('cls scoring', () => {
  it('puts scores in list order (last line wins, missing = -Inf) and reports unknown ids', () => {
    const p = new ProblemCollector();
    const gt = parseLabelledList('a 1\nb -1\nc 0\n', 'car_val.txt', p);
    const res = parseClsResults('b 0.5\na 0.1\nb 0.7\nzz 1\n', 'res.txt', p);
    const s = scoresInListOrder(gt, res, p, 'image');
    expect(Array.from(s)).toEqual([0.1, 0.7, -Infinity]);
    expect(p.problems).toMatchObject([{ code: 'input/unknown-image', file: 'res.txt', line: 4, found: '"zz"' }]);
  });

  it('ranks ties in list order, label 0 neither TP nor FP, NaN after -Inf', () => {
    const e = evaluateScoredList(Int32Array.of(-1, 1, 0, 1, 1), Float64Array.of(0.5, 0.5, 0.9, -Infinity, NaN), averagePrecisionArea, 'x', 4);
    // ranked: 2 (label 0), 0 (FP), 1 (TP), 3 (TP), 4 (TP)
    expect(Array.from(e.recall)).toEqual([0, 0, 1 / 3, 2 / 3, 1]);
    expect(Array.from(e.precision)).toEqual([NaN, 0, 0.5, 2 / 3, 0.75]);
    expect(e.npos).toBe(3);
  });

  it('always has one row per listed image and recall ends at 1 when there are positives', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(-1, 0, 1), fc.double({ noNaN: false })), { minLength: 1, maxLength: 40 }), (rows) => {
        const e = evaluateScoredList(Int32Array.from(rows, (r) => r[0]), Float64Array.from(rows, (r) => r[1]), averagePrecisionArea, 'x', rows.length);
        expect(e.recall.length).toBe(rows.length);
        if (rows.some((r) => r[0] > 0)) expect(e.recall[rows.length - 1]).toBe(1);
        else expect(e.ap).toBeNaN();
      }),
    );
  });

  it('reads the lists and results one file at a time, and on any problem gives every read problem before every parse problem', async () => {
    const root = makeTempDir('cvdevkit-cls-');
    const main = join(root, 'VOC2010/ImageSets/Main');
    const results = join(root, 'results/VOC2010/Main');
    mkdirSync(main, { recursive: true });
    mkdirSync(results, { recursive: true });
    writeFileSync(join(main, 'aeroplane_val.txt'), 'a 1\nb\nc -1\n');
    writeFileSync(join(main, 'bird_val.txt'), 'a 1\nb -1\nc -1\n');
    writeFileSync(join(main, 'cat_val.txt'), 'a -1\nb 1\nc 0\n');
    for (const c of ['aeroplane', 'bicycle', 'bird', 'cat']) writeFileSync(join(results, `comp1_cls_val_${c}.txt`), 'c 0.5\na 0.25\n');
    const p = new ProblemCollector();
    await readScoredInputs(CLS_SPEC, { root, comp: 'comp1', classes: 'aeroplane,bicycle,bird' }, p);
    expect(p.problems.map((q) => [q.code, q.file?.split('/').pop(), q.line])).toEqual([
      ['input/missing-file', 'bicycle_val.txt', undefined],
      ['input/field-count', 'aeroplane_val.txt', 2],
    ]);
    const clean = new ProblemCollector();
    const read = await readScoredInputs(CLS_SPEC, { root, comp: 'comp1', classes: 'bird,cat' }, clean);
    expect(clean.size).toBe(0);
    expect(read.lists.map((l) => Array.from(l!.labels))).toEqual([
      [1, -1, -1],
      [-1, 1, 0],
    ]);
    expect(read.lists[1]!.keys).toEqual(['a', 'b', 'c']);
    expect(read.scores.map((s) => Array.from(s!))).toEqual([
      [0.25, -Infinity, 0.5],
      [0.25, -Infinity, 0.5],
    ]);
    expect(read.counts).toEqual([2, 2]);
  });
});

afterAll(removeTempDirs);
