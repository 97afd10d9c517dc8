/**
 * `@cvdevkit/formats/png`: label-PNG decoding and indexed-PNG writing (pngjs), the PNG header reader and
 * the VOC colormap, kept out of the package's main entry so that a task without PNGs does not load pngjs.
 */
export * from './png.js';
export { readPngHeader, hasPngSignature, translatePngError, type PngHeader } from './png-header.js';
export * from './colormap.js';
