export * from './stats/index.js';
export * from './compare/index.js';
