/**
 * @cvdevkit/ade20k-sceneparsing: the ADE20K scene parsing task of the Places Challenge 2017
 * (SceneParse150): pixel accuracy, per-class IoU, mean IoU over the 150 classes and the challenge score
 * (pixel accuracy + mIoU) / 2, exact to the official MATLAB code. The default export is the plugin.
 */
import { definePlugin, defineTask } from '@cvdevkit/core';
import { PACKAGE, evaluateSceneParsing, mergeSceneParsing, validateSceneParsing } from './evaluate.js';
import type { SceneParsingOptions } from './options.js';
import { METRIC, TASK_ID } from './report.js';
import { sceneParsingSample } from './sample.js';
import { SCENEPARSING_CODES } from './codes.js';

export type { SceneParsingOptions } from './options.js';
export { CLASS_NAMES, CLASS_COUNT, classKey } from './classes.js';

const sceneParsingTask = defineTask<SceneParsingOptions>({
  id: TASK_ID,
  title: 'ADE20K scene parsing (Places Challenge 2017, SceneParse150)',
  description:
    'Pixel accuracy, per-class IoU and mean IoU over the 150 classes (IoU = ΣI / Σ(eps + U) image by image, as the official code), ' +
    'challenge score = (pixel accuracy + mIoU) / 2. The prediction folder drives the loop, as in demoEvaluation.m.',
  options: [
    { name: 'gt', type: 'path', required: true, description: 'ground-truth folder annotations/validation (<image>.png, 0 = unlabeled, 1..150 = classes)' },
    { name: 'pred', type: 'path', required: true, description: 'predictions folder (<image>.png named and sized as its ground truth, values = class ids)' },
    {
      name: 'missingAsWrong',
      type: 'boolean',
      default: false,
      description: 'score a ground truth without prediction (or with an RGB one) as all wrong instead of skipping it as the official code does',
    },
    { name: 'shard', type: 'string', description: 'evaluate block i of n ("2/3", or "auto" / "auto/n" in a SLURM or Kubernetes job array) of the listed files; needs --counts-out' },
    { name: 'countsOut', type: 'path', description: 'write the per-image counts there (JSON, gzip if *.gz), for cvdevkit merge ade20k/sceneparsing' },
  ],
  metric: METRIC,
  metrics: [METRIC],
  evaluate: evaluateSceneParsing,
  validate: validateSceneParsing,
  sample: sceneParsingSample,
  merge: mergeSceneParsing,
  // the HTML report and --plots: IoU per class (sorted, mIoU as a rule) and the pixel confusion matrix
  charts: [
    { kind: 'class-bars', field: 'iou', label: 'IoU', summaryKey: 'mIoU', axisTitle: 'Intersection over union (0–1)' },
    { kind: 'confusion-matrix', matrix: 'confusion' },
  ],
  // `cvdevkit compare --bootstrap`: the official eps-summed IoU recomputed on each replicate (replicate.ts)
  replicate: async (stats) => (await import('./replicate.js')).sceneParsingReplicator(stats),
});

const plugin = definePlugin({
  codes: SCENEPARSING_CODES,
  meta: {
    name: 'ade20k',
    version: PACKAGE.version,
    title: 'ADE20K scene parsing (Places Challenge 2017)',
    packageName: PACKAGE.name,
    homepage: 'https://github.com/CSAILVision/sceneparsing',
  },
  tasks: { [TASK_ID]: sceneParsingTask },
});

export default plugin;
