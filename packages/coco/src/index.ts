/**
 * @cvdevkit/coco: COCO detection evaluation (bbox, segm, keypoints) exact to pycocotools 2.0.11.
 */
export { defaultParams, linspace, COCO17_SIGMAS, CROWDPOSE14_SIGMAS, type CocoParams, type IouType, type AreaRange } from './params.js';
export { pairwiseSum, numpyMean } from './pairwise-sum.js';
