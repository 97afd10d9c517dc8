/**
 * The four text-results tasks of VOC2010 (cls, det, layout, action); seg and seg-from-det are in `seg/task.ts`.
 * Each task imports its implementation when it runs (`await import`): loading the plugin to run
 * `voc2010/cls` does not load the XML reader, the analysis package or the sample writer.
 */
import { defineTask, type PerImageStatistics, type Replicator } from '@cvdevkit/core';
import { AP_METRIC, AP_METRICS } from './ap-report.js';
import { apVoc2010Difficult } from './metrics/ap-voc2010-difficult.js';
import type { VocActionOptions, VocClsOptions } from './cls.js';
import type { VocDetOptions } from './det.js';
import type { VocLayoutOptions } from './layout.js';
import { VOC_ACTIONS, VOC_CLASSES, vocCommonOptionSpecs } from './voc-options.js';

/** The ranked tasks' bootstrap replicator (`cvdevkit compare --bootstrap`). */
const rankedReplicate = (task: string) => async (stats: PerImageStatistics): Promise<Replicator> => {
  const { perImageOfKind, rankedReplicator } = await import('@cvdevkit/metrics');
  return rankedReplicator(perImageOfKind(stats, 'ranked', task));
};

const sample = async (dir: string): Promise<{ root: string }> => ({ root: await (await import('./sample.js')).writeVocSample(dir) });

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
  evaluate: async (o, c) => (await import('./cls.js')).evaluateCls(o, c),
  validate: async (o) => (await import('./cls.js')).validateCls(o),
  analyze: async (r, c) => (await import('./analyze-cls.js')).analyzeClsSize(r, c),
  charts: [{ kind: 'pr-curves' }],
  replicate: rankedReplicate('voc2010/cls'),
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
  evaluate: async (o, c) => (await import('./det.js')).evaluateDet(o, c),
  validate: async (o) => (await import('./det.js')).validateDet(o),
  analyze: async (r, c) => (await import('./analyze.js')).analyzeDet(r, c),
  charts: [{ kind: 'pr-curves' }],
  replicate: rankedReplicate('voc2010/det'),
  sample,
});

export const layoutTask = defineTask<VocLayoutOptions>({
  id: 'voc2010/layout',
  title: 'PASCAL VOC2010 person layout (VOCevallayout_pr)',
  description: 'Average precision per part (head, hand, foot) of person layouts ranked by confidence; parts matched at IoU >= 0.5.',
  options: vocCommonOptionSpecs('layout'),
  metric: AP_METRIC,
  metrics: AP_METRICS,
  evaluate: async (o, c) => (await import('./layout.js')).evaluateLayout(o, c),
  validate: async (o) => (await import('./layout.js')).validateLayout(o),
  charts: [{ kind: 'pr-curves' }],
  replicate: rankedReplicate('voc2010/layout'),
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
  evaluate: async (o, c) => (await import('./cls.js')).evaluateAction(o, c),
  validate: async (o) => (await import('./cls.js')).validateAction(o),
  charts: [{ kind: 'pr-curves' }],
  replicate: rankedReplicate('voc2010/action'),
  sample,
});
