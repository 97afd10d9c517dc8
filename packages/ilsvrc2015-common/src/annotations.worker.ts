import { serveWorker, transferable } from '@cvdevkit/core';
import { parseAnnotationFiles, type PackedObjects } from './annotation.js';

/** A chunk of annotation files to parse. */
export interface AnnotationTask {
  files: string[];
}
export interface AnnotationWorkerData {
  wnids: string[];
}

let labelOf: Map<string, number> | undefined;

serveWorker<AnnotationTask, PackedObjects>((task, data) => {
  if (!labelOf) {
    labelOf = new Map();
    const wnids = (data as AnnotationWorkerData).wnids;
    for (let i = 0; i < wnids.length; i++) labelOf.set(wnids[i], i + 1);
  }
  const packed = parseAnnotationFiles(task.files, labelOf);
  return transferable(packed, [packed.counts.buffer, packed.labels.buffer, packed.boxes.buffer, packed.generated.buffer, packed.sizes.buffer] as ArrayBuffer[]);
});
