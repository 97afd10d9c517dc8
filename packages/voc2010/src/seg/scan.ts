/** Reading, checking and counting a batch of segmentation images (runs in a worker or in-process). */
import { isDevkitError, type Problem } from '@devkit/core';
import { readLabelPngSync, type LabelImage } from '@devkit/formats';
import { SEG_HISTOGRAM_SIZE, accumulateSegHistogram, checkSegPair } from './confusion.js';

export interface SegItem {
  id: string;
  gtFile: string;
  resFile: string;
}

export interface SegBatchResult {
  /** Joint histogram (441 bins, see `accumulateSegHistogram`). */
  hist: Float64Array;
  /** Pixels counted. */
  pixels: number;
  problems: Problem[];
  /** Ids whose ground truth is entirely void (the official code's Octave run fails on them). */
  allVoid: string[];
}

function read(file: string, problems: Problem[]): LabelImage | undefined {
  try {
    return readLabelPngSync(file);
  } catch (e) {
    if (isDevkitError(e) && e.kind === 'input') {
      problems.push(...e.problems);
      return undefined;
    }
    throw e;
  }
}

/** Checks and counts every image of the batch; problems are collected, not thrown. */
export function scanSegBatch(items: readonly SegItem[], hist = new Float64Array(SEG_HISTOGRAM_SIZE)): SegBatchResult {
  const problems: Problem[] = [];
  const allVoid: string[] = [];
  let pixels = 0;
  for (const item of items) {
    const gt = read(item.gtFile, problems);
    const res = read(item.resFile, problems);
    if (!gt || !res) continue;
    const found = checkSegPair(item.id, gt, res, item.resFile);
    if (found.length > 0) {
      problems.push(...found);
      continue;
    }
    const counted = accumulateSegHistogram(hist, gt.data, res.data);
    if (counted === 0 && gt.data.length > 0 && !(gt.data as Uint8Array).some((v: number) => v < 255)) allVoid.push(item.id);
    pixels += counted;
  }
  return { hist, pixels, problems, allVoid };
}
