import { iou as maskIou, PackedCounts, type Rle } from '@cvdevkit/rle';
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
  // the counts of one image's results, decoded again from the file's bytes (reused from image to image)
  const packed = new PackedCounts();
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
  };
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
