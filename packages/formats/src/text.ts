/**
 * `@cvdevkit/formats/text`: the text-file part of the input layer (regular files with size caps, the line
 * readers and number parsers, the byte readers of two-field files, visible quoting) without gzip, JSON,
 * caches or the XML, PNG and MAT readers: what a task that reads only text lists loads at start-up.
 */
export * from './input-limits.js';
export * from './fs-problem.js';
export * from './input-file.js';
export * from './visible.js';
export * from './numbers.js';
export * from './lines.js';
export * from './byte-keys.js';
export * from './byte-lines.js';
