/**
 * IoU of box `a[ai..ai+3]` and box `b[bi..bi+3]` (x1, y1, x2, y2) with the +1 pixel convention of the
 * VOC and ILSVRC devkits, in their operation order:
 * ```
 * bi=[max(bb(1),bbgt(1)); max(bb(2),bbgt(2)); min(bb(3),bbgt(3)); min(bb(4),bbgt(4))];
 * iw=bi(3)-bi(1)+1; ih=bi(4)-bi(2)+1;
 * if iw>0 & ih>0
 *   ua=(bb(3)-bb(1)+1)*(bb(4)-bb(2)+1)+(bbgt(3)-bbgt(1)+1)*(bbgt(4)-bbgt(2)+1)-iw*ih; ov=iw*ih/ua;
 * ```
 * `a` plays `bb` (the detection), `b` plays `bbgt`. Returns -Infinity when `iw <= 0` or `ih <= 0`
 * (the official code computes no overlap then, so the pair can never be a hit).
 */
export function boxIoU(a: ArrayLike<number>, ai: number, b: ArrayLike<number>, bi: number): number {
  const ax1 = a[ai], ay1 = a[ai + 1], ax2 = a[ai + 2], ay2 = a[ai + 3];
  const bx1 = b[bi], by1 = b[bi + 1], bx2 = b[bi + 2], by2 = b[bi + 3];
  const iw = (ax2 < bx2 ? ax2 : bx2) - (ax1 > bx1 ? ax1 : bx1) + 1;
  const ih = (ay2 < by2 ? ay2 : by2) - (ay1 > by1 ? ay1 : by1) + 1;
  if (!(iw > 0 && ih > 0)) return -Infinity;
  const ua = (ax2 - ax1 + 1) * (ay2 - ay1 + 1) + (bx2 - bx1 + 1) * (by2 - by1 + 1) - iw * ih;
  return (iw * ih) / ua;
}

export interface GroundTruthBoxes {
  /** 4 numbers per object: x1, y1, x2, y2. */
  boxes: ArrayLike<number>;
  /** VOC: 1 = difficult. A detection whose best object is difficult is ignored (neither TP nor FP). */
  difficult?: ArrayLike<number>;
  /** ILSVRC: per-object IoU threshold (`min(0.5, wh/((w+10)(h+10)))`); default `options.minOverlap`. */
  minOverlap?: ArrayLike<number>;
}

export interface MatchOptions {
  /**
   * - `'voc'` (VOCevaldet.m): the best-IoU object over all objects (strict `>`, first wins); if
   *   `ov >= thr`: difficult → ignored, free → TP (marked), taken → FP (no fallback); else FP.
   * - `'ilsvrc'` (eval_detection.m): only objects not yet detected are candidates; among those with
   *   `ov >= thr(k)` the largest `ov` (strict `>`, lowest index wins) → TP (marked); none → FP.
   */
  rule: 'voc' | 'ilsvrc';
  /** IoU threshold when the ground truth has no per-object thresholds (default 0.5; `>=` is a hit). */
  minOverlap?: number;
  /** `skip[d] = 1`: detection d is neither TP nor FP (ILSVRC blacklist). Indexed like detBoxes. */
  skip?: ArrayLike<number>;
  /** Scratch "already detected" flags, at least as long as the object count (reset here). */
  detected?: Uint8Array;
}

/**
 * Greedy matching of the detections of one image (and one class), in the processing order given by
 * `detIndices` (indices into `detBoxes`, 4 numbers each). Writes `tp[d]`/`fp[d]` (0/1) for each
 * listed detection d.
 */
export function matchDetections(
  detBoxes: ArrayLike<number>,
  detIndices: ArrayLike<number>,
  gt: GroundTruthBoxes,
  tp: Uint8Array,
  fp: Uint8Array,
  options: MatchOptions,
): void {
  const nobj = gt.boxes.length >> 2;
  const defaultThr = options.minOverlap ?? 0.5;
  let detected = options.detected;
  if (!detected || detected.length < nobj) detected = new Uint8Array(nobj);
  else detected.fill(0, 0, nobj);
  const { skip, rule } = options;
  const thr = gt.minOverlap;
  const difficult = gt.difficult;
  for (let k = 0; k < detIndices.length; k++) {
    const d = detIndices[k];
    tp[d] = 0;
    fp[d] = 0;
    if (skip && skip[d]) continue;
    const db = d * 4;
    if (rule === 'voc') {
      let ovmax = -Infinity;
      let jmax = -1;
      for (let j = 0; j < nobj; j++) {
        const ov = boxIoU(detBoxes, db, gt.boxes, j * 4);
        if (ov > ovmax) {
          ovmax = ov;
          jmax = j;
        }
      }
      if (jmax >= 0 && ovmax >= defaultThr) {
        if (difficult && difficult[jmax]) continue;
        if (!detected[jmax]) {
          tp[d] = 1;
          detected[jmax] = 1;
        } else fp[d] = 1;
      } else fp[d] = 1;
    } else {
      let ovmax = -Infinity;
      let jmax = -1;
      for (let j = 0; j < nobj; j++) {
        if (detected[j]) continue;
        const ov = boxIoU(detBoxes, db, gt.boxes, j * 4);
        const t = thr ? thr[j] : defaultThr;
        if (ov >= t && ov > ovmax) {
          ovmax = ov;
          jmax = j;
        }
      }
      if (jmax >= 0) {
        tp[d] = 1;
        detected[jmax] = 1;
      } else fp[d] = 1;
    }
  }
}
