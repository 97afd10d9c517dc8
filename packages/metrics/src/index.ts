export * from './ranking.js';
export * from './curve.js';
export * from './ap.js';
export * from './boxes.js';
export * from './confusion.js';
export * from './stats.js';
export * from './per-image.js';
