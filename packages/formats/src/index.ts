export * from './xml.js';
export * from './lines.js';
