/**
 * Intersection over union of boxes and of RLE masks, with COCO's crowd rule (pycocotools `bbIou`,
 * `rleIou`). Results are row-major detections × ground truths: out[d * gts + g].
 */
import { toBboxInto } from './bbox.js';
import { RleError } from './errors.js';
import type { Rle } from './rle.js';

/** C `fmin`: a NaN operand is ignored; on equal values the second operand (x86 `minsd`). */
function fmin(a: number, b: number): number {
  if (a !== a) return b;
  if (b !== b) return a;
  return a < b ? a : b;
}
function fmax(a: number, b: number): number {
  if (a !== a) return b;
  if (b !== b) return a;
  return a > b ? a : b;
}

function crowdFlags(isCrowd: ArrayLike<number | boolean>, n: number): Uint8Array {
  if (isCrowd.length !== n) {
    throw new RleError('crowd-length', 'one crowd flag per ground truth is needed', { expected: `${n} flags`, found: `${isCrowd.length}` });
  }
  const f = new Uint8Array(n);
  for (let g = 0; g < n; g++) f[g] = Number(isCrowd[g]) !== 0 ? 1 : 0;
  return f;
}

/** bbIou into out (row-major m×n); dt, gt are flattened [x, y, w, h] rows. */
function boxIouInto(dt: ArrayLike<number>, gt: ArrayLike<number>, m: number, n: number, crowd: Uint8Array, out: Float64Array): void {
  for (let g = 0; g < n; g++) {
    const G0 = gt[4 * g];
    const G1 = gt[4 * g + 1];
    const G2 = gt[4 * g + 2];
    const G3 = gt[4 * g + 3];
    const ga = G2 * G3;
    const isCrowd = crowd[g] === 1;
    for (let d = 0; d < m; d++) {
      const D0 = dt[4 * d];
      const D1 = dt[4 * d + 1];
      const D2 = dt[4 * d + 2];
      const D3 = dt[4 * d + 3];
      const da = D2 * D3;
      const o = d * n + g;
      out[o] = 0;
      const w = fmin(D2 + D0, G2 + G0) - fmax(D0, G0);
      if (w <= 0) continue;
      const h = fmin(D3 + D1, G3 + G1) - fmax(D1, G1);
      if (h <= 0) continue;
      const i = w * h;
      const u = isCrowd ? da : da + ga - i;
      out[o] = i / u;
    }
  }
}

/**
 * IoU of m detection boxes and n ground-truth boxes, flattened [x, y, w, h] rows (pycocotools `iou` on
 * boxes): for a crowd ground truth the union is the detection's area. No +1 pixel convention.
 */
export function boxIou(dts: ArrayLike<number>, gts: ArrayLike<number>, isCrowd: ArrayLike<number | boolean>): Float64Array {
  const m = Math.floor(dts.length / 4);
  const n = Math.floor(gts.length / 4);
  const crowd = crowdFlags(isCrowd, n);
  const out = new Float64Array(m * n);
  if (m > 0 && n > 0) boxIouInto(dts, gts, m, n, crowd, out);
  return out;
}

function walkFailed(d: number, g: number): never {
  throw new RleError('counts-sum', `iou: detection ${d} and ground truth ${g} cover different numbers of pixels`, {
    expected: 'counts summing to h*w in every RLE',
  });
}

export interface MaskIouOptions {
  /** toBboxes(dts), if the caller has them already (saves recomputing them per call). */
  dtBoxes?: Float64Array;
  /** toBboxes(gts), likewise. */
  gtBoxes?: Float64Array;
}

/**
 * Mask IoU of m detection RLEs and n ground-truth RLEs (pycocotools `iou` on RLEs), row-major m×n.
 * Pairs whose boxes do not overlap are 0 without a walk; otherwise RLEs of different sizes give −1, and the
 * exact value is intersection / union, or intersection / area(detection) for a crowd ground truth.
 */
export function iou(dts: readonly Rle[], gts: readonly Rle[], isCrowd: ArrayLike<number | boolean>, options: MaskIouOptions = {}): Float64Array {
  const m = dts.length;
  const n = gts.length;
  const crowd = crowdFlags(isCrowd, n);
  const out = new Float64Array(m * n);
  if (m === 0 || n === 0) return out;
  let db = options.dtBoxes;
  if (!db) {
    db = new Float64Array(4 * m);
    for (let d = 0; d < m; d++) toBboxInto(dts[d], db, 4 * d);
  }
  let gb = options.gtBoxes;
  if (!gb) {
    gb = new Float64Array(4 * n);
    for (let g = 0; g < n; g++) toBboxInto(gts[g], gb, 4 * g);
  }
  boxIouInto(db, gb, m, n, crowd, out);
  for (let d = 0; d < m; d++) {
    const D = dts[d];
    const A = D.counts;
    const ka = A.length;
    for (let g = 0; g < n; g++) {
      const o = d * n + g;
      if (!(out[o] > 0)) continue;
      const G = gts[g];
      if (D.h !== G.h || D.w !== G.w) {
        out[o] = -1;
        continue;
      }
      const B = G.counts;
      const kb = B.length;
      let ca = ka > 0 ? A[0] : 0;
      let cb = kb > 0 ? B[0] : 0;
      let va = 0;
      let vb = 0;
      let a = 1;
      let b = 1;
      let i = 0;
      let u = 0;
      let ct = 1;
      let steps = ka + kb + 2;
      while (ct > 0) {
        if (--steps < 0) walkFailed(d, g);
        const c = ca < cb ? ca : cb;
        if (va | vb) {
          u += c;
          if (va & vb) i += c;
        }
        ca -= c;
        if (ca === 0 && a < ka) {
          ca = A[a++];
          va ^= 1;
        }
        cb -= c;
        if (cb === 0 && b < kb) {
          cb = B[b++];
          vb ^= 1;
        }
        ct = (ca + cb) >>> 0;
      }
      if (i === 0) u = 1;
      else if (crowd[g] === 1) {
        u = 0;
        for (let j = 1; j < ka; j += 2) u += A[j];
        u >>>= 0;
      }
      out[o] = (i >>> 0) / (u >>> 0);
    }
  }
  return out;
}
