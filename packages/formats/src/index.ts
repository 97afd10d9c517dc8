export * from './xml.js';
export * from './lines.js';
export * from './png.js';
export * from './colormap.js';
// The MAT-file reader lives in its own package (no XML/PNG dependencies); re-exported for DESIGN's import path.
export * from '@cvdevkit/matfile';
