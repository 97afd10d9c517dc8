/** The `voc2010/seg` task (VOCevalseg.m) and `voc2010/seg-from-det` (create_segmentations_from_detections.m). */
// Each task imports its implementation when it runs (`await import`): the PNG reader loads only for these tasks.
import { defineTask } from '@cvdevkit/core';
import type { SegFromDetOptions } from '../writers/from-detections.js';
import type { VocSegOptions } from './options.js';
import { PACKAGE_NAME, PACKAGE_VERSION } from '../version.js';

declare module '@cvdevkit/core' {
  interface TaskRegistry {
    'voc2010/seg': VocSegOptions;
    'voc2010/seg-from-det': SegFromDetOptions;
  }
}

export const segTask = defineTask<VocSegOptions>({
  id: 'voc2010/seg',
  title: 'PASCAL VOC2010 segmentation (VOCevalseg)',
  description:
    'Per-class intersection over union of indexed result PNGs against SegmentationClass, over 21 labels ' +
    '(background + 20 classes; ground truth 255 is void), and their plain mean.',
  options: [
    { name: 'root', type: 'path', required: true, description: 'VOCdevkit directory (holds VOC2010/SegmentationClass and VOC2010/ImageSets)' },
    { name: 'set', type: 'string', default: 'val', description: 'image set: VOC2010/ImageSets/Segmentation/<set>.txt' },
    { name: 'comp', type: 'string', default: 'comp5', description: 'competition id: results in Segmentation/<comp>_<set>_cls/' },
    { name: 'results', type: 'path', description: 'results directory (default <root>/results/VOC2010)' },
  ],
  metric: 'iou-voc2010',
  metrics: ['iou-voc2010'],
  // the pixels are counted by a WebAssembly kernel (histogram-kernel.wat); the rest is reading files, native
  // inflating and copying: the run needs no optimising compiler (~5 MiB less memory, as fast)
  optimisingCompiler: false,
  evaluate: async (o, c) => (await import('./evaluate.js')).evaluateSegmentation(o, c),
  validate: async (o, c) => (await import('./evaluate.js')).validateSegmentation(o, c),
  sample: async (dir) => (await import('./sample.js')).writeSegSample(dir),
  charts: [
    { kind: 'class-bars', field: 'iou', label: 'IoU', summaryKey: 'mIoU', axisTitle: 'Intersection over union (0–1)' },
    { kind: 'confusion-matrix' },
  ],
  async replicate(stats) {
    const { confusionReplicator, perImageOfKind } = await import('@cvdevkit/metrics');
    return confusionReplicator(perImageOfKind(stats, 'confusion', 'voc2010/seg'));
  },
});


export const segFromDetTask = defineTask<SegFromDetOptions>({
  id: 'voc2010/seg-from-det',
  title: 'PASCAL VOC2010 segmentations from detections (create_segmentations_from_detections)',
  description:
    'Paints the detection boxes of every image of the segmentation set (class order, later classes overwrite ' +
    'earlier ones, as the VOC2010 script; --order confidence for the VOC2011/2012 script) and writes indexed PNGs ' +
    'that voc2010/seg can score with the same --comp.',
  options: [
    { name: 'root', type: 'path', required: true, description: 'VOCdevkit directory (holds VOC2010/)' },
    { name: 'set', type: 'string', default: 'val', description: 'image set: ImageSets/Segmentation/<set>.txt (and the det results set)' },
    { name: 'comp', type: 'string', default: 'comp3', description: 'detection competition id: Main/<comp>_det_<set>_<class>.txt' },
    { name: 'results', type: 'path', description: 'results directory (default <root>/results/VOC2010)' },
    { name: 'outDir', type: 'path', description: 'folder for the class PNGs (default <results>/Segmentation/<segComp>_<set>_cls)' },
    { name: 'segComp', type: 'string', description: 'competition id of the written segmentations (default: --comp, as the VOC2010 script)' },
    { name: 'order', type: 'string', default: 'class', choices: ['class', 'confidence'], description: 'painting order: class (VOC2010) or ascending confidence (VOC2011/2012)' },
    { name: 'threshold', type: 'number', description: 'paint only detections with confidence >= threshold (default: all)' },
    { name: 'instances', type: 'boolean', default: false, description: 'also write instance PNGs (<segComp>_<set>_inst)' },
  ],
  metric: 'none',
  metrics: ['none'],
  charts: [],
  async evaluate(options, context) {
    const t0 = performance.now();
    const { createSegmentationsFromDetections, segFromDetReport } = await import('../writers/from-detections.js');
    const summary = await createSegmentationsFromDetections(options, context);
    return segFromDetReport(summary, { [PACKAGE_NAME]: PACKAGE_VERSION }, performance.now() - t0);
  },
});
