export * from './xml.js';
export * from './lines.js';
export * from './png.js';
export * from './colormap.js';
