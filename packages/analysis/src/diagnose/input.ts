/**
 * The neutral input of every diagnosis: one row per detection and one per ground-truth object, as
 * the task's own readers produced them. Boxes are `x1, y1, x2, y2` in the devkits' +1-pixel
 * convention (4 numbers per row).
 */

/** Which official matching the detections were scored with (see `@cvdevkit/metrics` `matchDetections`). */
export type MatchRule = 'voc' | 'ilsvrc';

export interface DiagnoseDetections {
  /** Image position (0-based, into `DiagnoseInput.images`). */
  image: Int32Array;
  /** Class position (0-based, into `DiagnoseInput.classes`). */
  cls: Int32Array;
  score: Float64Array;
  /** 4 numbers per detection. */
  boxes: Float64Array;
  /**
   * The official ranking: a permutation of the detection indices, best first. Each class's curve is
   * this order restricted to the class; inside an image it is also the matching order. Default: a
   * stable sort by descending score, NaN last (VOCevaldet's `sort(-confidence)` on input order).
   */
  rank?: Uint32Array;
  /** `skip[d] = 1`: neither TP nor FP, but a row of its class's curve (ILSVRC blacklist). */
  skip?: Uint8Array;
}

export interface DiagnoseObjects {
  image: Int32Array;
  cls: Int32Array;
  /** 4 numbers per object. */
  boxes: Float64Array;
  /** VOC `difficult`: a detection whose best object it is, is ignored; not a positive. */
  difficult: Uint8Array;
  /** Not a positive and never matched (ILSVRC blacklisted (image, class) pairs); optional. */
  uncounted?: Uint8Array;
  /** ILSVRC per-object IoU threshold (`min(0.5, wh/((w+10)(h+10)))`); default 0.5. */
  minOverlap?: Float64Array;
}

export interface DiagnoseInput {
  /** Class names in the official order. */
  classes: readonly string[];
  /** Image ids in test-set order. */
  images: readonly string[];
  /** Image width and height from the annotation (needed by the size analysis only). */
  imageWidth?: Float64Array;
  imageHeight?: Float64Array;
  rule: MatchRule;
  detections: DiagnoseDetections;
  objects: DiagnoseObjects;
  /** Hoiem's similar classes: groups of class positions; two classes are similar when a group holds both. */
  similarGroups: readonly (readonly number[])[];
  /**
   * How the task averages per-class APs: `'numeric'` (VOC: the mean of the non-NaN APs) or `'all'`
   * (ILSVRC: NaN propagates).
   */
  meanRule: 'numeric' | 'all';
  /** The task's AP function on (recall, precision); default `VOCap` (`averagePrecisionArea`). */
  ap?: (recall: ArrayLike<number>, precision: ArrayLike<number>) => number;
}

/** Mean of per-class values under the task's rule. */
export function meanOf(values: ArrayLike<number>, rule: 'numeric' | 'all'): number {
  let s = 0;
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (rule === 'numeric' && Number.isNaN(v)) continue;
    s += v;
    n++;
  }
  return n === 0 ? NaN : s / n;
}

/** `similar[a * C + b] = 1` when classes a and b (a ≠ b) share a group. */
export function similarityMatrix(classCount: number, groups: readonly (readonly number[])[]): Uint8Array {
  const m = new Uint8Array(classCount * classCount);
  for (const g of groups) {
    for (const a of g) for (const b of g) if (a !== b && a >= 0 && b >= 0 && a < classCount && b < classCount) m[a * classCount + b] = 1;
  }
  return m;
}
