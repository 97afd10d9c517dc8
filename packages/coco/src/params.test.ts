import { describe, expect, it } from 'vitest';
import { COCO17_SIGMAS, defaultParams, linspace } from './params.js';
import { CASES, loadCase } from '../test/fixture-cases.js';

describe('params', () => {
  it('iouThrs are numpy linspace(.5, .95, 10): index 8 is 0.8999999999999999', () => {
    const t = defaultParams('bbox').iouThrs;
    expect(Array.from(t)).toEqual([0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.8999999999999999, 0.95]);
  });
  it('recThrs: ten points one ulp above i/100', () => {
    const r = defaultParams('bbox').recThrs;
    const above = [];
    for (let i = 0; i <= 100; i++) if (r[i] !== i / 100) above.push(i);
    expect(above).toEqual([35, 41, 47, 57, 69, 70, 82, 83, 94, 95]);
    expect(r[35]).toBe(0.35000000000000003);
    expect(r[100]).toBe(1);
  });
  it('the defaults equal the Params pycocotools printed for every default evaluation of the fixtures', () => {
    for (const c of CASES) {
      for (const e of loadCase(c).evaluations) {
        if (e.error || Object.keys(e.param_overrides).length > 0) continue;
        const p = defaultParams(e.iouType);
        expect(Array.from(p.iouThrs)).toEqual(e.params.iouThrs);
        expect(Array.from(p.recThrs)).toEqual(e.params.recThrs);
        expect(p.maxDets).toEqual(e.params.maxDets);
        expect(p.areaRanges.map((a) => [a.lo, a.hi])).toEqual(e.params.areaRng);
        expect(p.areaRanges.map((a) => a.label)).toEqual(e.params.areaRngLbl);
        if (e.iouType === 'keypoints') expect(Array.from(COCO17_SIGMAS)).toEqual(e.params.kpt_oks_sigmas);
      }
    }
  });
  it('linspace of 1 and 0 points', () => {
    expect(Array.from(linspace(2, 3, 1))).toEqual([2]);
    expect(linspace(2, 3, 0).length).toBe(0);
  });
});
