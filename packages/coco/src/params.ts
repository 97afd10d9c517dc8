/**
 * pycocotools' `Params` (cocoeval.py `Params`, E:498-534): the defaults of each iouType and the
 * normalisation `evaluate()` applies. `linspace` is numpy's (`y[i] = i*step + start`, last = stop), so
 * `iouThrs[8]` is 0.8999999999999999 and ten `recThrs` lie one ulp above i/100, as pycocotools has them.
 */
export type IouType = 'bbox' | 'segm' | 'keypoints';

export interface AreaRange {
  label: string;
  lo: number;
  hi: number;
}

export interface CocoParams {
  iouType: IouType;
  iouThrs: Float64Array;
  recThrs: Float64Array;
  /** Sorted ascending (as `evaluate()` sorts them). */
  maxDets: number[];
  areaRanges: AreaRange[];
  useCats: boolean;
  /** Sorted unique image ids to evaluate; undefined = every GT image. */
  imgIds?: number[];
  /** Category ids to evaluate; undefined = every GT category. */
  catIds?: number[];
  /** OKS sigmas (keypoints only). */
  kptSigmas: Float64Array;
}

/** `np.linspace(start, stop, num)` bit for bit (numpy ≥ 1.x: `arange(num) * step + start`, then `y[-1] = stop`). */
export function linspace(start: number, stop: number, num: number): Float64Array {
  const y = new Float64Array(num);
  if (num === 0) return y;
  if (num === 1) {
    y[0] = start;
    return y;
  }
  const step = (stop - start) / (num - 1);
  for (let i = 0; i < num; i++) y[i] = i * step + start;
  y[num - 1] = stop;
  return y;
}

/** COCO's 17 person keypoint sigmas: `np.array([.26, .25, …]) / 10.0` (E:523). */
export const COCO17_SIGMAS: Float64Array = Float64Array.from([0.26, 0.25, 0.25, 0.35, 0.35, 0.79, 0.79, 0.72, 0.72, 0.62, 0.62, 1.07, 1.07, 0.87, 0.87, 0.89, 0.89], (v) => v / 10.0);

/**
 * CrowdPose's 14 sigmas (crowdpose-api `cocoeval.py`: `np.array([.79, .79, .72, .72, .62, .62, 1.07, 1.07,
 * .87, .87, .89, .89, .79, .79]) / 10.0`). Only the sigmas: CrowdPose's easy/medium/hard AP is not computed.
 */
export const CROWDPOSE14_SIGMAS: Float64Array = Float64Array.from([0.79, 0.79, 0.72, 0.72, 0.62, 0.62, 1.07, 1.07, 0.87, 0.87, 0.89, 0.89, 0.79, 0.79], (v) => v / 10.0);

export const DEFAULT_AREA_RANGES: readonly AreaRange[] = [
  { label: 'all', lo: 0, hi: 1e10 },
  { label: 'small', lo: 0, hi: 1024 },
  { label: 'medium', lo: 1024, hi: 9216 },
  { label: 'large', lo: 9216, hi: 1e10 },
];

/** `setDetParams` / `setKpParams`. */
export function defaultParams(iouType: IouType): CocoParams {
  const iouThrs = linspace(0.5, 0.95, Math.round((0.95 - 0.5) / 0.05) + 1);
  const recThrs = linspace(0.0, 1.0, Math.round((1.0 - 0.0) / 0.01) + 1);
  if (iouType === 'keypoints') {
    return { iouType, iouThrs, recThrs, maxDets: [20], areaRanges: DEFAULT_AREA_RANGES.filter((a) => a.label !== 'small').map((a) => ({ ...a })), useCats: true, kptSigmas: COCO17_SIGMAS.slice() };
  }
  return { iouType, iouThrs, recThrs, maxDets: [1, 10, 100], areaRanges: DEFAULT_AREA_RANGES.map((a) => ({ ...a })), useCats: true, kptSigmas: COCO17_SIGMAS.slice() };
}
