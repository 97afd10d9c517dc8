export * from './errors.js';
export * from './codes.js';
export * from './report.js';
export * from './plugin.js';
export * from './context.js';
export * from './workers.js';
export * from './sample.js';
export * from './package-identity.js';
