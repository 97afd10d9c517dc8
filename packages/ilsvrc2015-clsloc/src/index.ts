/**
 * @cvdevkit/ilsvrc2015-clsloc: the ILSVRC2015 CLS-LOC task (`ilsvrc2015/clsloc`), exact to the
 * official devkit's `eval_clsloc.m`.
 */
import { definePlugin } from '@cvdevkit/core';
import { clslocTask } from './task.js';
import { PACKAGE_NAME, PACKAGE_VERSION } from './version.js';

export { clslocTask, CLSLOC_METRIC, type ClsLocOptions } from './task.js';
export { computeClsLocErrors, MIN_OVERLAP, type ClsLocErrors, type ClsLocInputs } from './clsloc-error.js';
export {
  parsePredictions,
  parseGroundTruthLabels,
  parseBlacklist,
  MAX_GUESSES,
  ANY_CLASS_LABEL,
  type Predictions,
  type GroundTruthLabels,
  type Blacklist,
} from './inputs.js';
export { readGroundTruthBoxes, readRecCache, listAnnotationFiles, type GroundTruthBoxes } from './ground-truth.js';
export { readAnnotationObjects, UNKNOWN_LABEL, type AnnotationObjects } from './annotation.js';
export { readSynsetMap, builtInSynsets, synsetMapFromWnids, type SynsetMap } from './meta.js';
export { CLSLOC_WNIDS } from './synsets.js';
export { writeSample } from './sample.js';

const plugin = definePlugin({
  meta: {
    name: 'ilsvrc2015',
    version: PACKAGE_VERSION,
    title: 'ILSVRC2015 classification + localisation',
    packageName: PACKAGE_NAME,
  },
  tasks: { 'ilsvrc2015/clsloc': clslocTask },
});

export default plugin;
