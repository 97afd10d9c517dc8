export * from './stats/index.js';
export * from './compare/index.js';
export * from './diagnose/index.js';
