import { serveWorker } from '@cvdevkit/core';
import { readRecordBatch, type RecordOrProblems } from './annotations.js';

/** Worker thread: parses a batch of annotation files. */
serveWorker<string[], RecordOrProblems[]>((paths) => readRecordBatch(paths));
