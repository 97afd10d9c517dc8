import { isDevkitError, problemsToDiagnostics, type Diagnostic, type RunContext } from '@cvdevkit/core';
import type { CocoOptions } from './options.js';
import type { IouType } from './params.js';
import { loadRun } from './run.js';
import { resultRle } from './iou-segm.js';
import { segmentationToRle } from './segmentation.js';

/**
 * `cvdevkit validate coco/<iouType>`: reads and checks both files as an evaluation does, and for segm
 * turns every segmentation into a mask (where a polygon or an RLE is malformed), without scoring. Returns
 * the warnings and the problems found (up to 50 masks).
 */
export async function validateCoco(iouType: IouType, options: CocoOptions, context: RunContext): Promise<Diagnostic[]> {
  let run;
  try {
    run = loadRun(iouType, options);
  } catch (e) {
    if (isDevkitError(e) && e.kind === 'input') return problemsToDiagnostics(e, { fields: ['file'] });
    throw e;
  }
  const out = [...run.diagnostics];
  if (iouType !== 'segm') return out;
  context.progress.begin('coco: validate masks', run.gt.anns.count + run.dt.count);
  const sizes = new Map<number, [number, number]>();
  run.gt.imageIds.forEach((id, i) => sizes.set(id, [run.gt.imageHeights[i], run.gt.imageWidths[i]]));
  const problems: Diagnostic[] = [];
  const check = (f: () => void) => {
    try {
      f();
    } catch (e) {
      if (!isDevkitError(e) || e.kind !== 'input') throw e;
      if (problems.length < 50) problems.push(...problemsToDiagnostics(e, { fields: ['file'] }));
    }
  };
  const ga = run.gt.anns;
  for (let i = 0; i < ga.count; i++) {
    const size = sizes.get(ga.imageId[i]);
    if (size) check(() => segmentationToRle(ga.segmentation[i], size[0], size[1], run.gt.file, `annotations[${i}].segmentation`));
  }
  for (let i = 0; i < run.dt.count; i++) {
    const size = sizes.get(run.dt.imageId[i])!;
    check(() => resultRle(run.dt, i, size[0], size[1]));
  }
  context.progress.end();
  return [...out, ...problems];
}
