export * from './diagnose/index.js';
