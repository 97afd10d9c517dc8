/**
 * The counts file of a shard (`--shard i/n --counts-out <file>`): every listed file's outcome and, for the
 * scored images, their per-image counts. `cvdevkit merge ade20k/sceneparsing <files…>` puts the shards back
 * in order and computes the report of one run, bit for bit (the official IoU denominator is an ordered sum,
 * so the per-image unions are kept, not a shard's total). JSON, gzip when the name ends in `.gz`; written
 * to a temporary file and renamed, so a file is never half-written.
 */
import { createHash } from 'node:crypto';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { inputError } from '@cvdevkit/core';
import { describeValue, ensureOutputDirSync, fsWriteError, gunzipInput, isGzip, parseJsonInput, readInputBytesSync } from '@cvdevkit/formats';
import { CLASS_COUNT } from './classes.js';
import { BINS, type ImageCounts } from './image-counts.js';
import type { PlanEntry, Shard } from './plan.js';
import type { EntryOutcome, EntryRecord, RunSettings } from './records.js';

export const COUNTS_FORMAT = 'cvdevkit.ade20k-sceneparsing.counts';
export const COUNTS_VERSION = 1;

export interface CountsFile {
  format: typeof COUNTS_FORMAT;
  version: typeof COUNTS_VERSION;
  producer: string;
  settings: RunSettings;
  /** Hash of the whole listing (names, which folder holds each): shards of one evaluation share it. */
  listing: string;
  /** Entries in the whole listing. */
  total: number;
  shard: Shard;
  /** This shard's block [start, end) of the listing. */
  start: number;
  end: number;
  entries: EntryRecord[];
}

/** A short hash of the listing: the names and which folder holds each. */
export function listingHash(entries: readonly PlanEntry[]): string {
  const h = createHash('sha256');
  for (const e of entries) h.update(`${e.name.length}:${e.name}:${e.hasPred ? 1 : 0}${e.hasGt ? 1 : 0}\n`);
  return h.digest('hex').slice(0, 32);
}

export function writeCountsFile(path: string, file: CountsFile): void {
  const text = JSON.stringify(file);
  ensureOutputDirSync(dirname(path), 'the counts file');
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  try {
    writeFileSync(tmp, path.endsWith('.gz') ? gzipSync(text) : text);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw fsWriteError(e, path, 'the counts file');
  }
}

const OUTCOMES: readonly EntryOutcome[] = ['evaluated', 'scored-as-wrong', 'skipped-truecolour', 'skipped-no-gt', 'skipped-no-pred'];
const EXPECTED = `a counts file written by ade20k/sceneparsing --shard i/n --counts-out (format "${COUNTS_FORMAT}", version ${COUNTS_VERSION})`;

function bad(file: string, field: string, expected: string, found: unknown): never {
  throw inputError({ code: 'input/counts-file', file, field, expected, found: describeValue(found) });
}

function isCount(x: unknown): x is number {
  return Number.isInteger(x) && (x as number) >= 0 && (x as number) <= Number.MAX_SAFE_INTEGER;
}

function countArray(file: string, field: string, a: unknown, length: number | undefined, max?: number): number[] {
  if (!Array.isArray(a) || (length !== undefined && a.length !== length)) bad(file, field, length === undefined ? 'an array of counts' : `an array of ${length} counts`, a);
  for (let i = 0; i < a.length; i++) {
    if (!isCount(a[i]) || (max !== undefined && (a[i] as number) > max)) bad(file, `${field}[${i}]`, max === undefined ? 'a non-negative integer' : `an integer 0..${max}`, a[i]);
  }
  return a as number[];
}

function checkCounts(file: string, at: string, c: unknown): ImageCounts {
  if (typeof c !== 'object' || c === null) bad(file, at, 'the image counts', c);
  const o = c as Record<string, unknown>;
  if (!isCount(o.pixelCorrect)) bad(file, `${at}.pixelCorrect`, 'a non-negative integer', o.pixelCorrect);
  if (!isCount(o.pixelLabeled) || o.pixelLabeled < o.pixelCorrect) bad(file, `${at}.pixelLabeled`, 'an integer ≥ pixelCorrect', o.pixelLabeled);
  const classes = countArray(file, `${at}.classes`, o.classes, undefined, CLASS_COUNT);
  for (let i = 0; i < classes.length; i++) if (classes[i] < 1 || (i > 0 && classes[i] <= classes[i - 1])) bad(file, `${at}.classes[${i}]`, 'ascending class ids 1..150', classes[i]);
  const intersection = countArray(file, `${at}.intersection`, o.intersection, classes.length);
  const union = countArray(file, `${at}.union`, o.union, classes.length);
  for (let i = 0; i < union.length; i++) if (union[i] < intersection[i] || union[i] === 0) bad(file, `${at}.union[${i}]`, 'a positive union ≥ the intersection', union[i]);
  const cells = countArray(file, `${at}.cells`, o.cells, undefined, BINS * BINS - 1);
  const cellCounts = countArray(file, `${at}.cellCounts`, o.cellCounts, cells.length);
  return { pixelCorrect: o.pixelCorrect, pixelLabeled: o.pixelLabeled as number, classes, intersection, union, cells, cellCounts };
}

/** Reads and checks one counts file (every field; a problem names the file and the field). */
export function readCountsFile(path: string): CountsFile {
  let bytes: Uint8Array = readInputBytesSync(path, { kind: 'counts', expected: EXPECTED });
  if (isGzip(bytes)) bytes = gunzipInput(bytes, path, EXPECTED);
  const json = parseJsonInput(Buffer.from(bytes).toString('utf8'), path, EXPECTED, 'input/counts-file');
  if (typeof json !== 'object' || json === null) bad(path, 'format', EXPECTED, json);
  const o = json as Record<string, unknown>;
  if (o.format !== COUNTS_FORMAT) bad(path, 'format', `"${COUNTS_FORMAT}"`, o.format);
  if (o.version !== COUNTS_VERSION) bad(path, 'version', String(COUNTS_VERSION), o.version);
  const s = o.settings as Record<string, unknown> | undefined;
  if (typeof s !== 'object' || s === null || typeof s.gtDir !== 'string' || typeof s.predDir !== 'string' || typeof s.missingAsWrong !== 'boolean') {
    bad(path, 'settings', '{ gtDir, predDir, missingAsWrong }', s);
  }
  if (typeof o.listing !== 'string') bad(path, 'listing', 'the listing hash', o.listing);
  if (!isCount(o.total)) bad(path, 'total', 'a non-negative integer', o.total);
  const shard = o.shard as Record<string, unknown> | undefined;
  if (typeof shard !== 'object' || shard === null || !isCount(shard.index) || !isCount(shard.count) || shard.index < 1 || shard.index > shard.count) {
    bad(path, 'shard', '{ index, count } with 1 ≤ index ≤ count', shard);
  }
  if (!isCount(o.start) || !isCount(o.end) || o.start > o.end || o.end > o.total) bad(path, 'start/end', `0 ≤ start ≤ end ≤ total (${String(o.total)})`, [o.start, o.end]);
  if (!Array.isArray(o.entries) || o.entries.length !== o.end - o.start) bad(path, 'entries', `an array of end - start = ${o.end - o.start} entries`, o.entries);
  const entries: EntryRecord[] = o.entries.map((e: unknown, i: number) => {
    const at = `entries[${i}]`;
    if (typeof e !== 'object' || e === null) bad(path, at, 'an entry { name, hasPred, hasGt, outcome }', e);
    const r = e as Record<string, unknown>;
    if (typeof r.name !== 'string' || r.name === '') bad(path, `${at}.name`, 'a file name', r.name);
    if (typeof r.hasPred !== 'boolean' || typeof r.hasGt !== 'boolean') bad(path, `${at}.hasPred/hasGt`, 'booleans', [r.hasPred, r.hasGt]);
    if (!OUTCOMES.includes(r.outcome as EntryOutcome)) bad(path, `${at}.outcome`, OUTCOMES.join(' / '), r.outcome);
    const scored = r.outcome === 'evaluated' || r.outcome === 'scored-as-wrong';
    if (scored !== (r.counts !== undefined)) bad(path, `${at}.counts`, scored ? 'the counts of a scored image' : 'no counts for a skipped file', r.counts);
    const record: EntryRecord = { name: r.name, hasPred: r.hasPred, hasGt: r.hasGt as boolean, outcome: r.outcome as EntryOutcome };
    if (scored) record.counts = checkCounts(path, `${at}.counts`, r.counts);
    return record;
  });
  return {
    format: COUNTS_FORMAT,
    version: COUNTS_VERSION,
    producer: typeof o.producer === 'string' ? o.producer : '',
    settings: { gtDir: s!.gtDir as string, predDir: s!.predDir as string, missingAsWrong: s!.missingAsWrong as boolean },
    listing: o.listing,
    total: o.total,
    shard: { index: shard!.index as number, count: shard!.count as number },
    start: o.start,
    end: o.end,
    entries,
  };
}

/**
 * Puts shards back together: every file of one evaluation (same listing, settings and shard count), each
 * shard once (an identical copy is ignored), none missing. Returns the records of the whole listing.
 */
export function mergeCountsFiles(paths: readonly string[]): { settings: RunSettings; records: EntryRecord[] } {
  const files = paths.map((p) => ({ path: p, file: readCountsFile(p) }));
  const first = files[0];
  const byIndex = new Map<number, { path: string; file: CountsFile; text: string }>();
  for (const { path, file } of files) {
    const differ = (field: string, expected: string, found: string) => {
      throw inputError({ code: 'input/counts-mismatch', file: path, field, expected: `${expected} (as ${first.path})`, found, hint: 'merge the counts files of one evaluation (same --gt, --pred, --missing-as-wrong and shard count)' });
    };
    if (file.listing !== first.file.listing || file.total !== first.file.total) differ('listing', `the listing ${first.file.listing} of ${first.file.total} files`, `${file.listing} of ${file.total} files`);
    if (file.settings.missingAsWrong !== first.file.settings.missingAsWrong) differ('settings.missingAsWrong', String(first.file.settings.missingAsWrong), String(file.settings.missingAsWrong));
    if (file.shard.count !== first.file.shard.count) differ('shard', `shards of ${first.file.shard.count}`, `shard ${file.shard.index}/${file.shard.count}`);
    const text = JSON.stringify(file.entries);
    const seen = byIndex.get(file.shard.index);
    if (seen !== undefined) {
      if (seen.text !== text) {
        throw inputError({ code: 'input/counts-conflict', file: path, field: 'shard', expected: `one counts file per shard (shard ${file.shard.index}/${file.shard.count} is also ${seen.path})`, found: 'different counts for the same shard' });
      }
      continue;
    }
    byIndex.set(file.shard.index, { path, file, text });
  }
  const count = first.file.shard.count;
  const missing: number[] = [];
  for (let i = 1; i <= count; i++) if (!byIndex.has(i)) missing.push(i);
  if (missing.length > 0) {
    throw inputError({ code: 'input/counts-incomplete', file: first.path, field: 'shard', expected: `the counts files of all ${count} shards`, found: `no file for shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${count}`).join(', ')}` });
  }
  const records: EntryRecord[] = [];
  for (let i = 1; i <= count; i++) {
    const { path, file } = byIndex.get(i)!;
    if (file.start !== records.length) {
      throw inputError({ code: 'input/counts-mismatch', file: path, field: 'start', expected: `shard ${i}/${count} to start at entry ${records.length}`, found: String(file.start) });
    }
    for (const r of file.entries) records.push(r);
  }
  if (records.length !== first.file.total) {
    throw inputError({ code: 'input/counts-incomplete', file: first.path, field: 'entries', expected: `${first.file.total} entries in all`, found: String(records.length) });
  }
  return { settings: first.file.settings, records };
}
