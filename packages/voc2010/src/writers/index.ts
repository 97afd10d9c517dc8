/** Writers of VOC2010 results files (cls/det/action text, layout XML, segmentation PNG) and segmentations from detections. */
export * from './numbers.js';
export * from './text-results.js';
export * from './layout-xml.js';
export * from './segmentation.js';
export * from './image-size.js';
export * from './image-list.js';
export * from './from-detections.js';
