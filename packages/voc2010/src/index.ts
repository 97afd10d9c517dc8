/**
 * The public API of @cvdevkit/voc2010: the plugin (default export), the option types of its tasks, the
 * class / action / part names, and the writers of results files in the official formats. Everything
 * else is internal (tests import it from its own file).
 */
import { definePlugin } from '@cvdevkit/core';
import { segFromDetTask, segTask } from './seg/task.js';
import { actionTask, clsTask, detTask, layoutTask } from './tasks.js';
import { PACKAGE_NAME, PACKAGE_VERSION } from './version.js';
import type { VocActionOptions, VocClsOptions } from './cls.js';
import type { VocDetOptions } from './det.js';
import type { VocLayoutOptions } from './layout.js';

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

declare module '@cvdevkit/core' {
  interface TaskRegistry {
    'voc2010/cls': VocClsOptions;
    'voc2010/det': VocDetOptions;
    'voc2010/layout': VocLayoutOptions;
    'voc2010/action': VocActionOptions;
  }
}

const plugin = definePlugin({
  meta: { name: 'voc2010', version: PACKAGE_VERSION, title: 'PASCAL VOC2010', packageName: PACKAGE_NAME, homepage: 'http://host.robots.ox.ac.uk/pascal/VOC/voc2010/' },
  tasks: {
    'voc2010/cls': clsTask,
    'voc2010/det': detTask,
    'voc2010/seg': segTask,
    'voc2010/seg-from-det': segFromDetTask,
    'voc2010/layout': layoutTask,
    'voc2010/action': actionTask,
  },
});

export default plugin;
