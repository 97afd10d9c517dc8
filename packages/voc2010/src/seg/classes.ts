import { VOC_CLASSES } from '../voc-options.js';

export { VOC_CLASSES };

/** Segmentation labels 0..20: `background` then the 20 classes (255 = void). */
export const SEG_LABELS: readonly string[] = ['background', ...VOC_CLASSES];

/** Number of segmentation labels (`VOCopts.nclasses + 1`). */
export const SEG_NUM_LABELS = 21;
/** The ground-truth value excluded from scoring (`locs = gtim < 255`). */
export const SEG_VOID = 255;
