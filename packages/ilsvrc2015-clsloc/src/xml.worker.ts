import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveWorker, transferable } from '@cvdevkit/core';
import { readAnnotationChunk, type AnnotationChunk } from './annotation.js';

/** A chunk of annotation files for one worker. */
export interface XmlChunkTask {
  dir: string;
  files: string[];
}

/** workerData: the synset map as [WNID, label] pairs. */
export interface XmlWorkerData {
  synsets: [string, number][];
}

let synsets: Map<string, number> | undefined;

serveWorker<XmlChunkTask, AnnotationChunk>((task, data) => {
  synsets ??= new Map((data as XmlWorkerData).synsets);
  const paths = task.files.map((f) => join(task.dir, f));
  const texts = paths.map((p) => readFileSync(p, 'utf8'));
  const chunk = readAnnotationChunk(texts, paths, synsets);
  return transferable(chunk, [chunk.counts.buffer as ArrayBuffer, chunk.labels.buffer as ArrayBuffer, chunk.boxes.buffer as ArrayBuffer]);
});
