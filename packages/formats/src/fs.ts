/**
 * `@cvdevkit/formats/fs`: the light part of the input layer (input limits, file-system errors in words, output
 * folders) without the XML, PNG and MAT readers, for tools whose start-up matters (the CLI).
 */
export * from './input-limits.js';
export * from './fs-problem.js';
export * from './output-file.js';
export * from './make-dirs.js';
