/**
 * The public API of @cvdevkit/voc2010: the plugin (default export), the option types of its tasks, the
 * class / action / part names, and the writers of results files in the official formats. Everything
 * else is internal (tests import it from its own file).
 */
export type { VocDetOptions } from './det.js';
export type { VocClsOptions, VocActionOptions } from './cls.js';
export type { VocLayoutOptions } from './layout.js';
export type { VocSegOptions } from './seg/options.js';
export type { VocCommonOptions, VocClass, VocAction, VocPart } from './voc-options.js';
export { VOC_CLASSES, VOC_ACTIONS, VOC_PARTS } from './voc-options.js';
export { SEG_LABELS, SEG_VOID } from './seg/classes.js';
// writers of results files in the official formats (what a submission is made of)
export {
  writeClsResults,
  writeDetResults,
  writeActionResults,
  writeLayoutResults,
  writeSegmentation,
  segmentationResultPath,
  createSegmentationsFromDetections,
  type ClsResult,
  type DetResult,
  type ActionResult,
  type LayoutResult,
  type SegFromDetOptions,
  type SegFromDetSummary,
} from './writers/index.js';

export { default } from './plugin.js';
