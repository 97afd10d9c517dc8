/** Reading fixtures/coco (pycocotools 2.0.11's arrays): the cases, their evaluations and their Params. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CocoParams, IouType } from '../src/params.js';

export const FIXTURES = join(import.meta.dirname, '../../../fixtures/coco');

export interface FixtureEvaluation {
  name: string;
  iouType: IouType;
  gt: string;
  results: string;
  param_overrides: Record<string, unknown>;
  params: {
    useCats: number;
    iouThrs: number[];
    recThrs: number[];
    maxDets: number[];
    areaRng: [number, number][];
    areaRngLbl: string[];
    imgIds: number[] | null;
    catIds: number[] | null;
    kpt_oks_sigmas?: number[];
  };
  K_catIds?: number[];
  counts?: number[];
  stats?: number[];
  summary?: Record<string, number>;
  precision?: unknown;
  recall?: unknown;
  scores?: unknown;
  error?: string;
}

export interface FixtureCase {
  case: string;
  evaluations: FixtureEvaluation[];
}

export const CASES = ['quirks', 'random_small', 'params'] as const;

export function loadCase(name: string): FixtureCase {
  return JSON.parse(readFileSync(join(FIXTURES, name, 'expected.json'), 'utf8')) as FixtureCase;
}

export function paramsOf(e: FixtureEvaluation): CocoParams {
  const p = e.params;
  return {
    iouType: e.iouType,
    iouThrs: Float64Array.from(p.iouThrs),
    recThrs: Float64Array.from(p.recThrs),
    maxDets: [...p.maxDets],
    areaRanges: p.areaRng.map(([lo, hi], i) => ({ label: p.areaRngLbl[i], lo, hi })),
    useCats: p.useCats !== 0,
    imgIds: p.imgIds ?? undefined,
    catIds: p.catIds ?? undefined,
    kptSigmas: Float64Array.from(p.kpt_oks_sigmas ?? []),
  };
}

/** A nested list flattened in C order. */
export function flatten(v: unknown): number[] {
  const out: number[] = [];
  const walk = (x: unknown) => {
    if (Array.isArray(x)) for (const y of x) walk(y);
    else out.push(x as number);
  };
  walk(v);
  return out;
}
