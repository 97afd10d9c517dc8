/** Options of `voc2010/seg` and the paths they lead to (VOCinit.m defaults). */
import { join, resolve } from 'node:path';
import { usageError } from '@devkit/core';
import { readTextFile, parseLines } from '@devkit/formats';

export interface VocSegOptions {
  /** The VOCdevkit directory (holds `VOC2010/`). */
  root: string;
  /** Image set (`ImageSets/Segmentation/<set>.txt`), default `val`. */
  set?: string;
  /** Competition id, default `comp5`. */
  comp?: string;
  /** Results directory, default `<root>/results/VOC2010`. */
  results?: string;
}

export interface SegPaths {
  root: string;
  set: string;
  comp: string;
  results: string;
  imageSet: string;
  gtDir: string;
  resultDir: string;
}

export function resolveSegPaths(options: VocSegOptions): SegPaths {
  if (typeof options.root !== 'string' || options.root.length === 0) {
    throw usageError('voc2010/seg needs --root <VOCdevkit directory>', 'usage/missing-option');
  }
  const root = resolve(options.root);
  const set = options.set ?? 'val';
  const comp = options.comp ?? 'comp5';
  const results = options.results !== undefined ? resolve(options.results) : join(root, 'results', 'VOC2010');
  return {
    root,
    set,
    comp,
    results,
    imageSet: join(root, 'VOC2010', 'ImageSets', 'Segmentation', `${set}.txt`),
    gtDir: join(root, 'VOC2010', 'SegmentationClass'),
    resultDir: join(results, 'Segmentation', `${comp}_${set}_cls`),
  };
}

/**
 * The image ids of a segmentation image set: the first field of every non-empty line (VOCevalseg reads
 * `textread(path, '%s %d')`; with MATLAB's line-wise textread a one-column list gives one id per line).
 */
export async function readSegImageSet(file: string): Promise<string[]> {
  const text = await readTextFile(file, 'an image set list (one image id per line)');
  return parseLines(text).map((l) => l.fields[0]);
}
