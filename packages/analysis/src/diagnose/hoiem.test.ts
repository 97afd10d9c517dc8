import { vocMatcher } from '@cvdevkit/metrics';
import { describe, expect, it } from 'vitest';
import { quantileBins } from './characteristics.js';
import { diagnose } from './diagnose.js';
import { BG, LOC, OTH, SIM, hoiemTypes } from './fp-types.js';
import type { DiagnoseInput } from './input.js';
import { prepare, FP, TP } from './prepare.js';
import { officialTideErrors } from './tide-official.js';
import { E_BKG, E_BOTH, E_CLS, E_DUPE, E_LOC } from './tide-run.js';

/**
 * Hand-built: image 0 holds a cat, a dog and a car; image 1 holds nothing. The cat detections are one
 * of each kind: a hit, a poor box, a duplicate, one on the dog (similar), one on the car (other), one on
 * background, one half on the dog (TIDE's "Both") and one on the empty image.
 */
function handBuilt(): DiagnoseInput {
  const dets: [number, number, number, number[]][] = [
    // image, class, score, box
    [0, 0, 0.95, [1, 1, 100, 100]], // TP
    [0, 0, 0.9, [60, 60, 160, 160]], // Loc (IoU ≈ 0.09? no: see test)
    [0, 0, 0.85, [1, 1, 100, 100]], // duplicate
    [0, 0, 0.8, [200, 200, 300, 300]], // on the dog
    [0, 0, 0.75, [400, 1, 500, 100]], // on the car
    [0, 0, 0.7, [600, 600, 650, 650]], // background
    [0, 0, 0.65, [240, 240, 340, 340]], // half on the dog
    [1, 0, 0.6, [1, 1, 50, 50]], // empty image
  ];
  const objs: [number, number, number[]][] = [
    [0, 0, [1, 1, 100, 100]],
    [0, 1, [200, 200, 300, 300]],
    [0, 2, [400, 1, 500, 100]],
  ];
  return {
    classes: ['cat', 'dog', 'car'],
    images: ['a', 'b'],
    imageWidth: Float64Array.of(700, 700),
    imageHeight: Float64Array.of(700, 700),
    match: vocMatcher,
    detections: {
      image: Int32Array.from(dets.map((d) => d[0])),
      cls: Int32Array.from(dets.map((d) => d[1])),
      score: Float64Array.from(dets.map((d) => d[2])),
      boxes: Float64Array.from(dets.flatMap((d) => d[3])),
    },
    objects: {
      image: Int32Array.from(objs.map((o) => o[0])),
      cls: Int32Array.from(objs.map((o) => o[1])),
      boxes: Float64Array.from(objs.flatMap((o) => o[2])),
      difficult: new Uint8Array(objs.length),
    },
    similarGroups: [[0, 1]],
    meanRule: 'numeric',
  };
}

describe('Hoiem false-positive types on hand-built images', () => {
  it('one detection of each kind gets its type, and the counts add up to the false positives', () => {
    const input = handBuilt();
    // The poor box: 41×41 overlap of two 100×100 boxes → IoU 1681 / 18319 ≈ 0.092 < 0.1; make it 0.1 ≤ IoU < 0.5.
    input.detections.boxes.set([30, 30, 130, 130], 4);
    const p = prepare(input);
    expect(Array.from(p.outcome)).toEqual([TP, FP, FP, FP, FP, FP, FP, FP]);
    const types = hoiemTypes(p);
    expect(Array.from(types)).toEqual([0, LOC, LOC, SIM, OTH, BG, SIM, BG]);
    const r = diagnose(input, { only: ['hoiem', 'tide', 'top'] });
    const cat = r.hoiem!.perClass[0];
    expect(cat.counts).toEqual({ Loc: 2, Sim: 2, Oth: 1, BG: 2 });
    expect(cat.counts.Loc + cat.counts.Sim + cat.counts.Oth + cat.counts.BG).toBe(r.official.perClass[0].fp);
    // Top-ranked detections up to npos (1): the TP.
    expect(cat.top).toEqual({ TP: 1, Loc: 0, Sim: 0, Oth: 0, BG: 0 });
    expect(cat.trend[0]).toEqual({ Loc: 2, Sim: 2, Oth: 1, BG: 2 });
    // TIDE's types on the same detections.
    const e = officialTideErrors(p);
    expect(Array.from(e.type)).toEqual([-1, E_LOC, E_DUPE, E_CLS, E_CLS, E_BKG, E_BOTH, E_BKG]);
    expect(r.tide!.counts).toEqual({ Cls: 2, Loc: 1, Both: 1, Dupe: 1, Bkg: 2, Miss: 0 });
    // The top lists: the TP first, the FPs with their type, near misses only on image a (which has a cat).
    const top = r.top![0];
    expect(top.truePositives.map((x) => x.rank)).toEqual([1]);
    expect(top.falsePositives.map((x) => x.type)).toEqual(['Loc', 'Loc', 'Sim', 'Oth', 'BG', 'Sim', 'BG']);
    expect(top.nearMisses.map((x) => x.image)).toEqual(['a', 'a', 'a', 'a', 'a', 'a']);
  });

  it('removing each type and fixing Loc changes the AP as expected', () => {
    const input = handBuilt();
    input.detections.boxes.set([30, 30, 130, 130], 4);
    const r = diagnose(input, { only: ['hoiem'] });
    const cat = r.hoiem!.perClass[0];
    // The TP ranks first, so precision is 1 at recall 1: nothing to gain.
    expect(cat.ap).toBe(1);
    expect(cat.impact).toEqual({ removeLoc: 1, removeSim: 1, removeBG: 1, fixLoc: 1 });
  });
});

describe('object-characteristic bins', () => {
  it('cut at the 10/30/70/90 % quantiles', () => {
    expect(quantileBins([5, 1, 9, 3, 7, 2, 8, 4, 6, 10])).toEqual([2, 0, 3, 1, 2, 1, 3, 2, 2, 4]);
    expect(quantileBins(Array.from({ length: 20 }, (_, i) => i)).reduce((a, b) => (a[b]++, a), [0, 0, 0, 0, 0])).toEqual([2, 4, 8, 4, 2]);
  });

  it('each bin holds the right objects and a perfect detector has APN 1 in every bin', () => {
    const n = 20;
    const boxes = Array.from({ length: n }, (_, i) => [1, 1 + 200 * i, 10 + 5 * i, 10 + 200 * i + 5 * i]).flat();
    const input: DiagnoseInput = {
      classes: ['x'],
      images: ['a'],
      match: vocMatcher,
      detections: { image: new Int32Array(n), cls: new Int32Array(n), score: Float64Array.from({ length: n }, (_, i) => 1 - i / 100), boxes: Float64Array.from(boxes) },
      objects: { image: new Int32Array(n), cls: new Int32Array(n), boxes: Float64Array.from(boxes), difficult: new Uint8Array(n) },
      similarGroups: [],
      meanRule: 'numeric',
    };
    const r = diagnose(input, { only: ['hoiem'] });
    const size = r.hoiem!.characteristics.find((c) => c.characteristic === 'size')!;
    expect(size.perClass[0].objects).toEqual([2, 4, 8, 4, 2]);
    // Bins of 2 objects are skipped (fewer than 5); the others are perfect.
    expect(size.perClass[0].apn).toEqual([null, null, 1, null, null]);
    expect(size.perClass[0].overall).toBe(1);
    expect(size.sensitivity).toBe(0);
  });
});
