import { join } from 'node:path';
import { isDevkitError, type Problem } from '@cvdevkit/core';
import { evaluateBoundary } from '@cvdevkit/boundary';
import { classKey } from './classes.js';
import { readGroundTruth, type GroundTruthImage } from './ground-truth.js';
import { readPrediction, sizeProblem } from './prediction.js';

/** One piece of work: some classes of one image (the GT .mat is decoded once for all of them). */
export interface UnitTask {
  gtDir: string;
  predDir: string;
  image: string;
  classes: number[];
  seed: number;
  /** Only read and check the files (after a problem was found: collect the others without computing). */
  checkOnly?: boolean;
}

/** The per-threshold counts of one (image, class). */
export interface ClassCounts {
  cls: number;
  cntR: Float64Array;
  sumR: Float64Array;
  cntP: Float64Array;
  sumP: Float64Array;
}

export interface UnitResult {
  image: string;
  counts: ClassCounts[];
  problems: Problem[];
  notes: string[];
}

/** Evaluates units; keeps the last few decoded GT files so that a run reads each GT once per evaluator. */
export class UnitEvaluator {
  private readonly gtCache = new Map<string, GroundTruthImage | Problem[]>();
  constructor(private readonly cacheSize = 2) {}

  /** Ground-truth files decoded so far and the CPU milliseconds that took (what another thread would pay again). */
  gtReads = 0;
  gtCpuMs = 0;

  private groundTruth(path: string): GroundTruthImage | Problem[] {
    const hit = this.gtCache.get(path);
    if (hit) return hit;
    const c0 = process.cpuUsage();
    this.gtReads++;
    let value: GroundTruthImage | Problem[];
    try {
      value = readGroundTruth(path);
    } catch (e) {
      if (isDevkitError(e) && e.kind === 'input') value = e.problems;
      else throw e;
    }
    const c = process.cpuUsage(c0);
    this.gtCpuMs += (c.user + c.system) / 1000;
    this.gtCache.set(path, value);
    while (this.gtCache.size > this.cacheSize) this.gtCache.delete(this.gtCache.keys().next().value!);
    return value;
  }

  evaluate(task: UnitTask): UnitResult {
    const result: UnitResult = { image: task.image, counts: [], problems: [], notes: [] };
    const gt = this.groundTruth(join(task.gtDir, `${task.image}.mat`));
    if (Array.isArray(gt)) {
      result.problems.push(...gt);
      return result;
    }
    for (const cls of task.classes) {
      const file = join(task.predDir, classKey(cls), `${task.image}.png`);
      const pred = readPrediction(file, file, { height: gt.height, width: gt.width });
      if (!pred.ok) {
        result.problems.push(pred.problem);
        continue;
      }
      if (pred.map.note) result.notes.push(`${file}: ${pred.map.note}`);
      if (pred.map.height !== gt.height || pred.map.width !== gt.width) {
        result.problems.push(sizeProblem(file, gt, pred.map));
        continue;
      }
      if (task.checkOnly || result.problems.length > 0) continue;
      const c = evaluateBoundary(pred.map.data, gt.mask(cls), gt.height, gt.width, { seed: task.seed, predAllZero: pred.map.allZero === true });
      result.counts.push({ cls, cntR: c.cntR, sumR: c.sumR, cntP: c.cntP, sumP: c.sumP });
    }
    if (result.problems.length > 0) result.counts = [];
    return result;
  }
}
