/**
 * `@cvdevkit/formats`: the text and file part of the input layer — regular files with size caps, file-system
 * errors in words, the one line reader and number parser, gzip and JSON inputs, atomic output files.
 * The readers with a dependency each have their own entry, loaded only by the tasks that read such files:
 * `@cvdevkit/formats/xml`, `@cvdevkit/formats/png`, `@cvdevkit/formats/mat`.
 */
export * from './input-limits.js';
export * from './fs-problem.js';
export * from './input-file.js';
export * from './regular-files.js';
export * from './text-pieces.js';
export * from './visible.js';
export * from './numbers.js';
export * from './gzip.js';
export * from './output-file.js';
export * from './json-input.js';
export * from './lines.js';
export * from './parse-cache.js';
export * from './make-dirs.js';
export * from './shard.js';
export * from './input-folder.js';
