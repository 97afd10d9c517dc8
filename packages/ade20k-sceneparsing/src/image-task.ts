/**
 * One image of the evaluation (the body of demoEvaluation.m's loop, l.36-62), run in a worker thread or
 * in the main thread: reads the ground truth and the prediction and counts them.
 */
import type { Problem } from '@cvdevkit/core';
import { countImage, type ImageCounts } from './image-counts.js';
import { readLabel } from './read-label.js';

export interface ImageTask {
  /** The ground-truth PNG. */
  gtFile: string;
  /** The prediction PNG; null when there is none (scored all wrong under `--missing-as-wrong`). */
  predFile: string | null;
  /** Score a truecolour prediction as all wrong instead of skipping it (`--missing-as-wrong`). */
  missingAsWrong: boolean;
}

export type ImageOutcome =
  /** Scored from its prediction. */
  | 'evaluated'
  /** Scored as if every pixel were predicted 0 (no prediction, or a truecolour one, under --missing-as-wrong). */
  | 'scored-as-wrong'
  /** A truecolour prediction, skipped as the official code does ("should be a gray-scale image!"). */
  | 'skipped-truecolour'
  /** A file could not be used (the problems say why). */
  | 'failed';

export interface ImageResult {
  outcome: ImageOutcome;
  counts?: ImageCounts;
  problems: Problem[];
}

function dims(h: number, w: number): string {
  return `${h}×${w} (height×width)`;
}

/** Evaluates one image; bad input is returned as problems, never thrown. */
export function evaluateImage(task: ImageTask): ImageResult {
  const problems: Problem[] = [];
  const gt = readLabel(task.gtFile, 'a ground-truth label PNG');
  if (!gt.ok) {
    problems.push(
      gt.truecolour
        ? { code: 'input/png-color-type', file: task.gtFile, expected: 'a ground-truth label PNG: greyscale (or palette) class ids 0..150', found: 'a truecolour (RGB) PNG' }
        : gt.problem,
    );
  }
  let pred: ArrayLike<number> | null = null;
  let truecolour = false;
  if (task.predFile !== null) {
    const p = readLabel(task.predFile, 'a prediction label PNG');
    if (p.ok) {
      pred = p.image.data;
      if (gt.ok && (p.image.height !== gt.image.height || p.image.width !== gt.image.width)) {
        problems.push({
          code: 'input/size-mismatch',
          file: task.predFile,
          expected: `the size of its ground truth ${task.gtFile}: ${dims(gt.image.height, gt.image.width)}`,
          found: `${dims(p.image.height, p.image.width)} (the official code resizes it with imresize, whose result differs between MATLAB and Octave; save the prediction at the ground truth's size)`,
        });
      }
    } else if (p.truecolour) {
      truecolour = true;
    } else {
      problems.push(p.problem);
    }
  }
  if (problems.length > 0 || !gt.ok) return { outcome: 'failed', problems };
  if (truecolour && !task.missingAsWrong) return { outcome: 'skipped-truecolour', problems };
  if (pred === null) return { outcome: 'scored-as-wrong', counts: countImage(gt.image.data, null), problems };
  return { outcome: 'evaluated', counts: countImage(gt.image.data, pred), problems };
}
