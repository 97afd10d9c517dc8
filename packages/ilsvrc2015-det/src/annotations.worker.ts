import { readFileSync } from 'node:fs';
import { serveWorker, transferable, type Problem } from '@devkit/core';
import { packObjects, readAnnotationObjects, type AnnotationObjects, type PackedObjects } from './annotation.js';

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
  const problems: Problem[] = [];
  const perFile: AnnotationObjects[] = [];
  for (const file of task.files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      problems.push({ code: 'input/missing-file', file, expected: 'an annotation XML file', found: 'no such file' });
      perFile.push({ labels: [], boxes: [], generated: [] });
      continue;
    }
    perFile.push(readAnnotationObjects(text, file, labelOf, problems));
  }
  const packed = packObjects(perFile, problems);
  return transferable(packed, [packed.counts.buffer, packed.labels.buffer, packed.boxes.buffer, packed.generated.buffer] as ArrayBuffer[]);
});
