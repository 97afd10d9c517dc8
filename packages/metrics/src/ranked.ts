/**
 * `@cvdevkit/metrics/ranked`: ranking, precision/recall and AP (the ranked-list metrics), without the box,
 * confusion, statistics and per-image modules: what a ranked-list task loads at start-up.
 */
export * from './ranking.js';
export * from './curve.js';
export * from './ap.js';
