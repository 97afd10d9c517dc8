import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { inputError, type Diagnostic } from '@cvdevkit/core';
import type { CocoFixes, EvalSetup } from './evaluate.js';
import type { CocoParams } from './params.js';
import { CategoryRecords } from './records.js';
import type { Shard } from './shard.js';

export const RECORDS_SCHEMA = 'cvdevkit.coco-records/1';

/** What a shard writes: its images' evaluateImg records per category, and everything needed to check and merge. */
export interface RecordsFile {
  schema: typeof RECORDS_SCHEMA;
  task: string;
  version: string;
  shard: Shard;
  /** The shard's block of the sorted image ids: [start, end). */
  images: [number, number];
  params: Record<string, unknown>;
  fixes: CocoFixes;
  setup: { imgIds: number; catIds: number[]; kCatIds: number[] };
  names: [number, string][];
  /** The inputs' sizes in bytes (a merge refuses shards of different files). */
  inputs: { gt: number; results: number };
  diagnostics: Diagnostic[];
  categories: {
    imagesWithRecord: number;
    npig: number[];
    ndet: number;
    scores: string;
    ranks: string;
    images: string;
    outcomes: string[];
  }[];
}

const b64 = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');

function fromB64<T>(text: string, make: (b: ArrayBuffer) => T): T {
  const buf = Buffer.from(text, 'base64');
  const copy = new ArrayBuffer(buf.length);
  new Uint8Array(copy).set(buf);
  return make(copy);
}

export function paramsRecord(p: CocoParams): Record<string, unknown> {
  return {
    iouType: p.iouType,
    iouThrs: Array.from(p.iouThrs),
    recThrs: Array.from(p.recThrs),
    maxDets: p.maxDets,
    areaRanges: p.areaRanges,
    useCats: p.useCats,
    imgIds: p.imgIds ?? null,
    catIds: p.catIds ?? null,
    kptSigmas: Array.from(p.kptSigmas),
  };
}

export function recordsToFile(base: Omit<RecordsFile, 'schema' | 'categories'>, records: CategoryRecords[], ndet: ArrayLike<number>): RecordsFile {
  return {
    schema: RECORDS_SCHEMA,
    ...base,
    categories: records.map((r, k) => ({
      imagesWithRecord: r.imagesWithRecord,
      npig: Array.from(r.npig),
      ndet: ndet[k],
      scores: b64(r.scores.view()),
      ranks: b64(r.ranks.view()),
      images: b64(r.images.view()),
      outcomes: r.outcomes.map((o) => b64(o.view())),
    })),
  };
}

/** Writes the file whole or not at all (a temporary name, then a rename); gzip when the name ends in .gz. */
export function writeRecordsFile(path: string, file: RecordsFile): void {
  const text = JSON.stringify(file);
  const bytes = path.endsWith('.gz') ? gzipSync(text) : Buffer.from(text);
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, bytes);
    renameSync(tmp, path);
  } catch (e) {
    throw inputError({ code: 'input/output-path', file: path, expected: 'a writable records file (--records-out)', found: (e as NodeJS.ErrnoException).code ?? 'an I/O error' });
  }
}

export function readRecordsFile(path: string): RecordsFile {
  let data: RecordsFile;
  try {
    let bytes = readFileSync(path);
    if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
    data = JSON.parse(bytes.toString('utf8')) as RecordsFile;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw inputError({ code: code === 'ENOENT' ? 'input/missing-file' : 'input/counts-file', file: path, expected: 'a records file written by coco --shard i/n --records-out', found: code ?? 'not readable JSON' });
  }
  if (data?.schema !== RECORDS_SCHEMA) throw inputError({ code: 'input/counts-file', file: path, field: 'schema', expected: RECORDS_SCHEMA, found: JSON.stringify(data?.schema) });
  return data;
}

/** The records of one file's category k, rebuilt. */
export function categoryFromFile(c: RecordsFile['categories'][number], T: number, A: number): CategoryRecords {
  const r = new CategoryRecords(T, A);
  const scores = fromB64(c.scores, (b) => new Float64Array(b));
  const ranks = fromB64(c.ranks, (b) => new Int32Array(b));
  const images = fromB64(c.images, (b) => new Int32Array(b));
  for (let i = 0; i < scores.length; i++) {
    r.scores.push(scores[i]);
    r.ranks.push(ranks[i]);
    r.images.push(images[i]);
  }
  c.outcomes.forEach((o, a) => {
    const bytes = fromB64(o, (b) => new Uint8Array(b));
    const at = r.outcomes[a].reserve(bytes.length);
    r.outcomes[a].data.set(bytes, at);
  });
  c.npig.forEach((v, a) => (r.npig[a] = v));
  r.imagesWithRecord = c.imagesWithRecord;
  return r;
}

/** Appends `b` (a later block of images) to `a`. */
export function appendCategory(a: CategoryRecords, b: CategoryRecords): void {
  for (let i = 0; i < b.count; i++) {
    a.scores.push(b.scores.data[i]);
    a.ranks.push(b.ranks.data[i]);
    a.images.push(b.images.data[i]);
  }
  b.outcomes.forEach((o, k) => {
    const at = a.outcomes[k].reserve(o.length);
    a.outcomes[k].data.set(o.view(), at);
  });
  for (let k = 0; k < a.npig.length; k++) a.npig[k] += b.npig[k];
  a.imagesWithRecord += b.imagesWithRecord;
}

export type { EvalSetup };
