/** Writers of VOC2010 results files (cls/det/action text, layout XML, segmentation PNG) and segmentations from detections. */
export { formatExact, num2str } from './numbers.js';
export * from './text-results.js';
export * from './layout-xml.js';
export * from './segmentation.js';
export {
  createSegmentationsFromDetections,
  renderDetections,
  segCompFor,
  type PaintDetection,
  type SegFromDetOptions,
  type SegFromDetSummary,
} from './from-detections.js';
