import { definePlugin } from '@cvdevkit/core';
import { detTask, PACKAGE_NAME, VERSION } from './task.js';

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
} from './groundTruth.js';
export { evaluateDetections, type DetectionEvalOptions, type DetectionEvalResult, type ClassResult } from './evaluate.js';
export {
  detTask,
  runDetectionTask,
  validateDetectionInputs,
  ILSVRC_AP,
  PACKAGE_NAME,
  VERSION,
  type IlsvrcDetOptions,
  type DetectionTaskSettings,
  type DetectionTaskInputs,
} from './task.js';
export { writeDetSample, annotationXml, seededRandom, writeText, randomBox, sampleDetections, SAMPLE_SYNSETS, type SampleObject } from './sample.js';

const plugin = definePlugin({
  meta: { name: 'ilsvrc2015', version: VERSION, title: 'ILSVRC2015 object detection (DET)', packageName: PACKAGE_NAME },
  tasks: { 'ilsvrc2015/det': detTask },
});

export default plugin;
