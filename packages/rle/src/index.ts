/**
 * @cvdevkit/rle: run-length encoded binary masks, column-major, equal to pycocotools' mask API bit for bit
 * (compressed strings byte for byte). See README.md.
 */
export type { Rle } from './rle.js';
export { checkRle, checkSize, MAX_PIXELS } from './rle.js';
export { RleError, isRleError, type RleErrorReason } from './errors.js';
export { encode, decode, area } from './mask.js';
export { toBbox, toBboxes, toBboxInto } from './bbox.js';
export { encodeString, decodeString, decodeStringMeasured, decodeBytesMeasured, decodeBytesArea, decodeBytes, CountsArena, PackedCounts, type MeasuredRle } from './string.js';
export { fromPolygon, fromPolygons, fromPolygonPacked, fromBox, fromBoxes } from './polygon.js';
export { fromUncompressed } from './uncompressed.js';
export { merge } from './merge.js';
export { iou, iouPacked, boxIou, boxPairIou, type MaskIouOptions } from './iou.js';
export { MaskList } from './mask-list.js';
