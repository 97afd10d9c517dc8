/** Options of `voc2010/seg` and the paths they lead to (VOCinit.m defaults). */
import { join } from 'node:path';
import { resolveVocPaths, segResultsDir } from '../voc-options.js';
import { parseLines } from '@cvdevkit/formats/text';
import { imageSetHint } from '../path-hints.js';
import { readTextInput } from '../text.js';

/** Same shape as the other VOC tasks' options (`VocCommonOptions`). */
export interface VocSegOptions {
  /** The VOCdevkit directory (holds `VOC2010/`, or is the `VOC2010` folder itself). */
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
  const p = resolveVocPaths(options, 'seg');
  return {
    root: p.root,
    set: p.set,
    comp: p.comp,
    results: p.resultsDir,
    imageSet: p.imageSet('Segmentation', p.set),
    gtDir: join(p.dataDir, 'SegmentationClass'),
    resultDir: segResultsDir(p),
  };
}

/**
 * The image ids of a segmentation image set: the first field of every non-empty line (VOCevalseg reads
 * `textread(path, '%s %d')`; with MATLAB's line-wise textread a one-column list gives one id per line).
 */
export async function readSegImageSet(file: string): Promise<string[]> {
  const text = (await readTextInput(file, 'an image set list (one image id per line)', undefined, () => imageSetHint(file)))!;
  return parseLines(text).map((l) => l.fields[0]);
}
