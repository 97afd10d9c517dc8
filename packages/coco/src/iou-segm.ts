import { decodeBytes, fromPolygonPacked, iou as maskIou, iouPacked, isRleError, MaskList, PackedCounts, type Rle } from '@cvdevkit/rle';
import type { GroundTruth, Results } from './dataset.js';
import type { IouComputer } from './evaluate.js';
import { maskFromBytes, segmentationToRle } from './segmentation.js';

/**
 * computeIoU for iouType segm: GT and detection segmentations turned into RLEs (`_prepare`'s annToRLE,
 * at the image's height and width), then `maskUtils.iou` with the GTs' crowd flags. A bbox-branch result
 * without a segmentation is its box polygon `[x1,y1, x1,y2, x2,y2, x2,y1]` (loadRes C:331-340).
 */
export function segmIouComputer(gt: GroundTruth, dt: Results): IouComputer {
  const sizes = new Map<number, [number, number]>();
  for (let i = 0; i < gt.imageIds.length; i++) sizes.set(gt.imageIds[i], [gt.imageHeights[i], gt.imageWidths[i]]);
  // (computeRange: each image's position in the image columns, no tuple destructured per unit)
  const imagePos = new Map<number, number>();
  for (let i = 0; i < gt.imageIds.length; i++) imagePos.set(gt.imageIds[i], i);
  // the counts of one image's results, decoded again from the file's bytes (reused from image to image)
  const packed = new PackedCounts();
  // computeRange's work space, reused unit after unit: the masks as packed counts, the crowd flags, the
  // detections' boxes and the IoU matrix (no array, object or view per unit or per mask)
  // (room for the counts of most units' masks from the start: a growth first met in optimised code throws it away)
  const gts = new MaskList(1 << 14);
  const dts = new MaskList(1 << 15);
  let crowd = new Uint8Array(16);
  let boxes = new Float64Array(64);
  let ious = new Float64Array(256);
  return {
    compute(gts, dts, imageId) {
      const [h, w] = sizes.get(imageId)!;
      packed.length = 0;
      const g: Rle[] = [];
      const crowd = new Uint8Array(gts.length);
      for (let j = 0; j < gts.length; j++) {
        const a = gts[j];
        g.push(segmentationToRle(gt.anns.segmentation[a], h, w, gt.file, `annotations[${a}].segmentation`));
        crowd[j] = Math.trunc(gt.anns.iscrowd[a]) !== 0 ? 1 : 0;
      }
      const d: Rle[] = [];
      for (let i = 0; i < dts.length; i++) d.push(resultRle(dt, dts[i], h, w, packed));
      return maskIou(d, g, crowd, { dtBoxes: maskBoxesOf(dt, dts) });
    },
    computeRange(gIdx, g0, g1, dIdx, d0, d1) {
      const ng = g1 - g0;
      const nd = d1 - d0;
      // the unit's image: its ground truths' (a unit with no ground truth is never measured)
      const at = imagePos.get(gt.anns.imageId[gIdx[g0]])!;
      const h = gt.imageHeights[at];
      const w = gt.imageWidths[at];
      gts.clear();
      dts.clear();
      if (crowd.length < ng) crowd = new Uint8Array(Math.max(ng, 2 * crowd.length));
      for (let j = 0; j < ng; j++) {
        const a = gIdx[g0 + j];
        addGroundTruth(gts, gt, a, h, w);
        crowd[j] = Math.trunc(gt.anns.iscrowd[a]) !== 0 ? 1 : 0;
      }
      for (let j = 0; j < nd; j++) addResult(dts, dt, dIdx[d0 + j], h, w);
      if (boxes.length < 4 * nd) boxes = new Float64Array(Math.max(4 * nd, 2 * boxes.length));
      const dtBoxes = maskBoxesInto(dt, dIdx, d0, d1, boxes) ? boxes : undefined;
      if (ious.length < nd * ng) ious = new Float64Array(Math.max(nd * ng, 2 * ious.length));
      iouPacked(dts, gts, crowd, dtBoxes, ious);
      return ious;
    },
  };
}

// a single polygon's numbers as doubles (the rasteriser then sees one kind of array: see polygonList)
let polygonScratch = new Float64Array(64);

/**
 * Ground-truth annotation a's mask (annToRLE at h × w) appended to `list`. A single polygon of numbers (the
 * common case) is rasterised straight into the list; anything else, or a polygon the rasteriser refuses, goes
 * through `segmentationToRle` (the same mask, or the located error).
 */
function addGroundTruth(list: MaskList, gt: GroundTruth, a: number, h: number, w: number): void {
  const segm = gt.anns.segmentation[a];
  if (Array.isArray(segm) && segm.length === 1) {
    const p: unknown = segm[0];
    if (Array.isArray(p) && p.length > 4) {
      const n = p.length;
      if (polygonScratch.length < n) polygonScratch = new Float64Array(Math.max(n, 2 * polygonScratch.length));
      const xy = polygonScratch;
      let numbers = true;
      for (let i = 0; i < n; i++) {
        const v: unknown = p[i];
        if (typeof v !== 'number') {
          numbers = false;
          break;
        }
        xy[i] = v;
      }
      if (numbers) {
        const base = list.counts.length;
        let m = -1;
        try {
          m = fromPolygonPacked(xy, n, h, w, list.counts);
        } catch (e) {
          if (!isRleError(e)) throw e;
        }
        if (m >= 0) {
          list.push(h, w, base, m);
          return;
        }
      }
    }
  }
  list.add(segmentationToRle(segm, h, w, gt.file, `annotations[${a}].segmentation`));
}

/** Result i's mask appended to `list` (decoded from the file's bytes where the reader kept them). */
function addResult(list: MaskList, dt: Results, i: number, h: number, w: number): void {
  const mb = dt.maskBytes;
  if (mb !== undefined && mb.length[i] >= 0) {
    const base = list.counts.length;
    const at = mb.start[i];
    const mh = mb.h[i];
    const mw = mb.w[i];
    const m = decodeBytes(mb.bytes, at, at + mb.length[i], mh, mw, list.counts);
    list.push(mh, mw, base, m);
    return;
  }
  list.add(resultRle(dt, i, h, w));
}

/** maskBoxesOf for dIdx[d0, d1) into `out`; false where it would give undefined. */
function maskBoxesInto(dt: Results, dIdx: Int32Array, d0: number, d1: number, out: Float64Array): boolean {
  const all = dt.maskBoxes;
  if (all === undefined) return false;
  for (let k = 0; k < d1 - d0; k++) {
    const i = dIdx[d0 + k];
    if (dt.masks?.[i] === undefined && !(dt.maskBytes !== undefined && dt.maskBytes.length[i] >= 0)) return false;
    for (let c = 0; c < 4; c++) out[4 * k + c] = all[4 * i + c];
  }
  return true;
}

/** Result i's mask (`packed`: where a mask measured from the file's bytes is decoded into). */
export function resultRle(dt: Results, i: number, h: number, w: number, packed?: PackedCounts): Rle {
  const fromBytes = dt.maskBytes && maskFromBytes(dt.maskBytes, i, packed ?? new PackedCounts(Math.max(1, dt.maskBytes.length[i])));
  if (fromBytes) return fromBytes;
  const decoded = dt.masks?.[i];
  if (decoded !== undefined) return decoded as Rle;
  if (dt.hasSegmentation[i]) return segmentationToRle(dt.segmentation[i], h, w, dt.file, `[${i}].segmentation`);
  const b = 4 * i;
  const x1 = dt.bbox[b];
  const x2 = dt.bbox[b] + dt.bbox[b + 2];
  const y1 = dt.bbox[b + 1];
  const y2 = dt.bbox[b + 1] + dt.bbox[b + 3];
  return segmentationToRle([[x1, y1, x1, y2, x2, y2, x2, y1]], h, w, dt.file, `[${i}].bbox`);
}

/** The boxes loadRes measured for these results' masks, when it measured all of them (else undefined: iou measures). */
function maskBoxesOf(dt: Results, dts: ArrayLike<number>): Float64Array | undefined {
  const all = dt.maskBoxes;
  if (all === undefined) return undefined;
  const out = new Float64Array(4 * dts.length);
  for (let k = 0; k < dts.length; k++) {
    const i = dts[k];
    if (dt.masks?.[i] === undefined && !(dt.maskBytes !== undefined && dt.maskBytes.length[i] >= 0)) return undefined;
    out.set(all.subarray(4 * i, 4 * i + 4), 4 * k);
  }
  return out;
}
