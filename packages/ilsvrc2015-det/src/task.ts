import { defineTask, readPackageIdentity, type TaskDefinition } from '@cvdevkit/core';
import { ILSVRC_AP, runDetectionTask, validateDetectionInputs, type DetectionTaskSettings } from '@cvdevkit/ilsvrc2015-common';

const IDENTITY = readPackageIdentity(new URL('../package.json', import.meta.url));
export const PACKAGE_NAME: string = IDENTITY.name;
export const VERSION: string = IDENTITY.version;

export interface IlsvrcDetOptions {
  /** Prediction file: `<image_index> <DET_ID> <confidence> <xmin> <ymin> <xmax> <ymax>` per line. */
  pred: string;
  /** `meta_det.mat` (struct array `synsets`) or a plain-text `synsets.txt` (`<id> <WNID> <name>`). */
  meta: string;
  /** Image list `val.txt`: `<image name> <index>` per line. */
  list: string;
  /** `Annotations/DET/val` directory, or the devkit's ground-truth cache `.mat`. */
  gt: string;
  /** Optional `<image index> <WNID>` blacklist. */
  blacklist?: string;
}

declare module '@cvdevkit/core' {
  interface TaskRegistry {
    'ilsvrc2015/det': IlsvrcDetOptions;
  }
}

const DET_SETTINGS: DetectionTaskSettings = {
  task: 'ilsvrc2015/det',
  dataset: 'ilsvrc2015',
  packageName: PACKAGE_NAME,
  version: VERSION,
  order: 'index',
  outside: 'error',
};

export const detTask: TaskDefinition<IlsvrcDetOptions> = defineTask<IlsvrcDetOptions>({
  id: 'ilsvrc2015/det',
  title: 'ILSVRC2015 object detection (DET)',
  description:
    'Per-class average precision (VOCap area) with the ILSVRC matching rule (small-object IoU threshold, blacklist), mean and median over the classes the official eval_detection.m evaluates.',
  options: [
    { name: 'pred', type: 'path', required: true, description: 'prediction file: "<image_index> <DET_ID> <confidence> <xmin> <ymin> <xmax> <ymax>" per line' },
    { name: 'meta', type: 'path', required: true, description: 'meta_det.mat (struct array synsets), or synsets.txt ("<id> <WNID> <name>" per line)' },
    { name: 'list', type: 'path', description: 'image list val.txt ("<image name> <index>" per line); needed with XML annotations (with a cache .mat the cache\'s own list is used)' },
    { name: 'gt', type: 'path', required: true, description: 'Annotations/DET/val directory of XML files, or the ground-truth cache .mat (ILSVRC2015_det_validation_ground_truth.mat)' },
    { name: 'blacklist', type: 'path', description: 'blacklist "<image index> <WNID>" per line (ILSVRC2015_det_validation_blacklist.txt)' },
  ],
  metric: ILSVRC_AP,
  metrics: [ILSVRC_AP],
  evaluate: (options, context) => runDetectionTask(options, DET_SETTINGS, context),
  validate: (options) => validateDetectionInputs(options, DET_SETTINGS),
  // the error analysis and the sample writer load only when asked for
  analyze: async (options, context) => (await import('@cvdevkit/ilsvrc2015-common/analyze')).analyzeDetectionTask(options, options, DET_SETTINGS, context),
  sample: async (dir) => (await import('./sample.js')).writeDetSample(dir),
  charts: [{ kind: 'pr-curves' }],
  async replicate(stats) {
    const { perImageOfKind, rankedReplicator } = await import('@cvdevkit/metrics');
    return rankedReplicator(perImageOfKind(stats, 'ranked', 'ilsvrc2015/det'));
  },
});
