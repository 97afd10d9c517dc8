// The VID golden files have the same shape as DET's: one set of helpers for both.
export * from '../../ilsvrc2015-det/test/expected.js';
