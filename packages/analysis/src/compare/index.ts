export { createReplicator, summarize, type Replicator } from './replicate.js';
