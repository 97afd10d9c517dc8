/**
 * The ground truth and the results in columns (one typed array per field, one entry per annotation), as
 * `COCO(gt)` and `COCO.loadRes` hold them. Segmentations stay as the JSON values they were read as; the
 * segm evaluation turns them into RLEs image by image.
 */
export interface GroundTruth {
  file: string;
  /** Image ids in file order, their height and width (`images[]`). */
  imageIds: Float64Array;
  imageHeights: Float64Array;
  imageWidths: Float64Array;
  /** Category ids and names in file order (`categories[]`). */
  categoryIds: Float64Array;
  categoryNames: string[];
  /** `images[].file_name` and `categories[].supercategory` where given (read for `analyze`). */
  imageFileNames?: (string | undefined)[];
  categorySupercategories?: (string | undefined)[];
  anns: GtAnnotations;
}

export interface GtAnnotations {
  count: number;
  id: Float64Array;
  imageId: Float64Array;
  categoryId: Float64Array;
  area: Float64Array;
  /** The `iscrowd` value (a number; `true` → 1). */
  iscrowd: Float64Array;
  /** The file's `ignore` field, NaN when absent (pycocotools overwrites it; `--fix ignore` honours it). */
  ignore: Float64Array;
  /** `[x, y, w, h]` per annotation; NaN when absent. */
  bbox: Float64Array;
  /** `num_keypoints`, NaN when absent. */
  numKeypoints: Float64Array;
  /** `keypoints` (3k numbers) or undefined. */
  keypoints: (Float64Array | undefined)[];
  /** `segmentation` as read (polygons, RLE objects), or undefined. */
  segmentation: unknown[];
}

/** Which `loadRes` branch the first result chose (C:326-363). */
export type ResultsKind = 'bbox' | 'segmentation' | 'keypoints' | 'empty';

export interface Results {
  file: string;
  kind: ResultsKind;
  count: number;
  imageId: Float64Array;
  categoryId: Float64Array;
  score: Float64Array;
  /** The area `loadRes` set: box w·h (bbox branch), mask area (segmentation), keypoint extent. */
  area: Float64Array;
  /**
   * The box `loadRes` kept or derived, `[x, y, w, h]` each; NaN for a mask read for an evaluation and not
   * kept (`maskBytes.length` -2: no unit with ground truth holds it, nothing reads its box).
   */
  bbox: Float64Array;
  keypoints: (Float64Array | undefined)[];
  /** The segmentation given, or (bbox branch, none given) undefined: the box polygon is made on demand. */
  segmentation: unknown[];
  /** 1 for results that carry a segmentation. */
  hasSegmentation: Uint8Array;
  /** The masks loadRes already decoded (segmentation branch), by result index, to be decoded once. */
  masks?: unknown[];
  /**
   * The compressed RLEs loadRes measured straight from the file's bytes (the reader's columns): result i's
   * mask is maskH[i] × maskW[i], its string bytes[start[i] … start[i] + length[i]) (length -1: not here,
   * see `masks`). Decoded again where the IoU needs the counts (as pycocotools parses the strings again in
   * `iou`): the bytes take a quarter of the counts' memory.
   */
  maskBytes?: { bytes: Uint8Array; start: Float64Array; length: Int32Array; h: Float64Array; w: Float64Array };
  /** toBbox of each of `masks`, row i at [4i … 4i+3] (handed to the mask IoU so that it does not walk the masks again). */
  maskBoxes?: Float64Array;
}
