// @cvdevkit/ilsvrc2015-common: what the ILSVRC2015 detection plugins (DET, VID) share. A library,
// not a plugin: it has no "cvdevkit" key and registers no task.
export { ILSVRC_CODES } from './codes.js';
export { readSynsets, readSynsetsText, type Synsets } from './meta.js';
export {
  parseImageList,
  readImageList,
  parseBlacklist,
  readBlacklist,
  parsePredictions,
  readPredictions,
  parseNumberToken,
  type ImageList,
  type Blacklist,
  type Predictions,
} from './inputs.js';
export { readAnnotationObjects, type AnnotationObjects } from './annotation.js';
export {
  readGroundTruthXml,
  readGroundTruthCache,
  smallObjectThreshold,
  groundTruthFromObjects,
  annotationFiles,
  type GroundTruth,
} from './ground-truth.js';
export { evaluateDetections, type DetectionEvalOptions, type DetectionEvalResult, type ClassResult } from './evaluate.js';
export {
  runDetectionTask,
  validateDetectionInputs,
  ILSVRC_AP,
  PACKAGE_NAME,
  VERSION,
  type DetectionTaskSettings,
  type DetectionTaskInputs,
} from './detection-task.js';
export { annotationXml, writeText, type SampleObject } from './sample-xml.js';
// the analyze hook (`@cvdevkit/ilsvrc2015-common/analyze`) has its own entry: it reads and ranks for the diagnosis only when asked for
