import { serveWorker } from '@cvdevkit/core';
import { listFolder, type ListedFolder } from '@cvdevkit/formats';
import { readRecordBatch, type AnnotationBatch, type RecordOrProblems } from './annotations.js';

/** The annotations folder as this worker listed it (one listing per worker, not per batch). */
let folder: ListedFolder | undefined;

/** Worker thread: parses a batch of annotation files. */
serveWorker<AnnotationBatch, RecordOrProblems[]>(({ dir, paths }) => {
  if (folder?.dir !== dir) folder = listFolder(dir);
  return readRecordBatch(paths, folder);
});
