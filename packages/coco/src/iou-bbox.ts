import { boxPairIou } from '@cvdevkit/rle';
import type { GroundTruth, Results } from './dataset.js';
import type { IouComputer } from './evaluate.js';

/** computeIoU for iouType bbox: `maskUtils.iou` of the `[x, y, w, h]` boxes with the GTs' crowd flags. */
export function bboxIouComputer(gt: GroundTruth, dt: Results): IouComputer {
  const gb = gt.anns.bbox;
  const db = dt.bbox;
  const crowd = gt.anns.iscrowd;
  let out = new Float64Array(1024);
  const range = (gIdx: Int32Array, g0: number, g1: number, dIdx: Int32Array, d0: number, d1: number): Float64Array => {
    const ng = g1 - g0;
    const nd = d1 - d0;
    // one buffer for every unit (read before the next call): no allocation per (image, category)
    if (out.length < nd * ng) out = new Float64Array(Math.max(nd * ng, 2 * out.length));
    for (let j = 0; j < ng; j++) {
      const g = gIdx[g0 + j];
      const c = Math.trunc(crowd[g]) !== 0;
      for (let i = 0; i < nd; i++) out[i * ng + j] = boxPairIou(db, 4 * dIdx[d0 + i], gb, 4 * g, c);
    }
    return out;
  };
  return {
    compute: (gts, dts) => range(gts, 0, gts.length, dts, 0, dts.length),
    computeRange: range,
  };
}
