import { definePlugin, defineTask } from '@cvdevkit/core';
import { AP_METRIC, AP_METRICS } from './ap-report.js';
import { apVoc2010Difficult } from './metrics/ap-voc2010-difficult.js';
import { evaluateAction, evaluateCls, validateAction, validateCls, type VocActionOptions, type VocClsOptions } from './cls.js';
import { evaluateDet, validateDet, type VocDetOptions } from './det.js';
import { analyzeDet } from './analyze.js';
import { analyzeClsSize } from './analyze-cls.js';
import { evaluateLayout, validateLayout, type VocLayoutOptions } from './layout.js';
import { writeVocSample } from './sample.js';
import { segFromDetTask, segTask } from './seg/task.js';
import { PACKAGE_NAME, PACKAGE_VERSION } from './version.js';
import { VOC_ACTIONS, VOC_CLASSES, vocCommonOptionSpecs } from './voc-options.js';

export type { VocDetOptions } from './det.js';
export type { VocClsOptions, VocActionOptions } from './cls.js';
export type { VocLayoutOptions, LayoutPrediction } from './layout.js';
export { evaluateDet, validateDet, evaluateDetClass, classGroundTruth, mapDetImages } from './det.js';
export { evaluateCls, validateCls, evaluateAction, validateAction, evaluateScoredList, scoresInListOrder } from './cls.js';
export { evaluateLayout, validateLayout, parseLayoutResults, evaluateLayoutPredictions, layoutGroundTruth } from './layout.js';
export { parseDetResults, parseClsResults, parseActionResults, type DetResults, type ScoredResults } from './results.js';
export { parseVocRecord, readVocRecordSync, readVocRecords, type VocRecord, type VocObjectRecord, type VocPartRecord, type VocBox } from './annotations.js';
export { parseImageList, parseLabelledList, parseActionList, parseLayoutList, readList, actionKey, type KeyList, type LabelledList, type LayoutList } from './image-sets.js';
export { forEachLine, parseStrtod, parseIntegerToken } from './text.js';
export * from './voc-options.js';
export { apReport, meanOfNumeric, AP_METRIC, AP_METRICS, type ApEntry } from './ap-report.js';
export { writeVocSample } from './sample.js';
export { analyzeDet, vocDiagnoseInput } from './analyze.js';
export { analyzeClsSize } from './analyze-cls.js';
export { segTask, segFromDetTask } from './seg/task.js';
export type { VocSegOptions, SegPaths } from './seg/options.js';
export { resolveSegPaths, readSegImageSet } from './seg/options.js';
export { writeSegSample } from './seg/sample.js';
export { SEG_LABELS, SEG_NUM_LABELS, SEG_VOID } from './seg/classes.js';
export { accumulateSegHistogram, histogramToConfusion, checkSegPair, SEG_HISTOGRAM_SIZE, type SegCount } from './seg/confusion.js';
export { scanSegmentation, evaluateSegmentation, validateSegmentation, type SegScan } from './seg/evaluate.js';
export * from './writers/index.js';
export { PACKAGE_NAME, PACKAGE_VERSION } from './version.js';

declare module '@cvdevkit/core' {
  interface TaskRegistry {
    'voc2010/cls': VocClsOptions;
    'voc2010/det': VocDetOptions;
    'voc2010/layout': VocLayoutOptions;
    'voc2010/action': VocActionOptions;
  }
}

const sample = async (dir: string): Promise<{ root: string }> => ({ root: await writeVocSample(dir) });

export const clsTask = defineTask<VocClsOptions>({
  id: 'voc2010/cls',
  title: 'PASCAL VOC2010 classification (VOCevalcls)',
  description: 'Average precision per class of image-level confidences; images without a result rank last (-Inf), ties in image-set order.',
  options: [
    ...vocCommonOptionSpecs('cls'),
    { name: 'classes', type: 'string', description: `comma-separated subset of the classes (default all: ${VOC_CLASSES.join(',')})` },
  ],
  metric: AP_METRIC,
  metrics: AP_METRICS,
  evaluate: evaluateCls,
  validate: (o) => validateCls(o),
  analyze: analyzeClsSize,
  sample,
});

export const detTask = defineTask<VocDetOptions>({
  id: 'voc2010/det',
  title: 'PASCAL VOC2010 detection (VOCevaldet)',
  description: 'Average precision per class of ranked boxes: +1-pixel IoU >= 0.5, greedy matching by confidence, difficult objects ignored, duplicates false.',
  options: [
    ...vocCommonOptionSpecs('det'),
    { name: 'classes', type: 'string', description: `comma-separated subset of the classes (default all: ${VOC_CLASSES.join(',')})` },
  ],
  metric: AP_METRIC,
  metrics: [...AP_METRICS, apVoc2010Difficult],
  evaluate: evaluateDet,
  validate: (o) => validateDet(o),
  analyze: analyzeDet,
  sample,
});

export const layoutTask = defineTask<VocLayoutOptions>({
  id: 'voc2010/layout',
  title: 'PASCAL VOC2010 person layout (VOCevallayout_pr)',
  description: 'Average precision per part (head, hand, foot) of person layouts ranked by confidence; parts matched at IoU >= 0.5.',
  options: vocCommonOptionSpecs('layout'),
  metric: AP_METRIC,
  metrics: AP_METRICS,
  evaluate: evaluateLayout,
  validate: (o) => validateLayout(o),
  sample,
});

export const actionTask = defineTask<VocActionOptions>({
  id: 'voc2010/action',
  title: 'PASCAL VOC2010 action classification (VOCevalaction)',
  description: 'Average precision per action of person-level confidences; persons without a result rank last (-Inf).',
  options: [
    ...vocCommonOptionSpecs('action'),
    { name: 'actions', type: 'string', description: `comma-separated subset of the actions (default all: ${VOC_ACTIONS.join(',')})` },
  ],
  metric: AP_METRIC,
  metrics: AP_METRICS,
  evaluate: evaluateAction,
  validate: (o) => validateAction(o),
  sample,
});

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
