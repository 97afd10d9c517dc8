/** The `voc2010/seg` task (VOCevalseg.m) and `voc2010/seg-from-det` (create_segmentations_from_detections.m). */
import { defineTask } from '@devkit/core';
import { evaluateSegmentation, validateSegmentation } from './evaluate.js';
import type { VocSegOptions } from './options.js';
import { writeSegSample } from './sample.js';

declare module '@devkit/core' {
  interface TaskRegistry {
    'voc2010/seg': VocSegOptions;
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
  evaluate: evaluateSegmentation,
  validate: validateSegmentation,
  sample: writeSegSample,
});
