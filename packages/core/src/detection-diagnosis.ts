import type { Diagnostic } from './report.js';

/**
 * The neutral input of a detection diagnosis (`cvdevkit analyze`): one row per detection and one per ground-truth
 * object, as the task's own readers produced them, with the task's official matching passed as a function. A
 * task's `analyze` hook builds it; `@cvdevkit/analysis` diagnoses it. Boxes are `x1, y1, x2, y2` in the devkits'
 * +1-pixel convention (4 numbers per row), or `x, y, w, h` when `DiagnoseInput.boxFormat` is `'xywh'`.
 */

export interface DiagnoseDetections {
  /** Image position (0-based, into `DiagnoseInput.images`). */
  image: Int32Array;
  /** Class position (0-based, into `DiagnoseInput.classes`). */
  cls: Int32Array;
  score: Float64Array;
  /** 4 numbers per detection. */
  boxes: Float64Array;
  /**
   * The official ranking: a permutation of the detection indices, best first. Each class's curve is
   * this order restricted to the class; inside an image it is also the matching order. Default: a
   * stable sort by descending score, NaN last (`sort(-confidence)` on input order).
   */
  rank?: Uint32Array;
  /** `skip[d] = 1`: neither TP nor FP, but a row of its class's curve (for example a blacklisted pair). */
  skip?: Uint8Array;
  /** The detection's area as the task measures it (for `DiagnoseInput.areaRanges`). */
  area?: Float64Array;
  /** `ignoreUnmatched[d] = 1`: ignored (neither TP nor FP) when it matches no object (outside the evaluated area range). */
  ignoreUnmatched?: Uint8Array;
}

export interface DiagnoseObjects {
  image: Int32Array;
  cls: Int32Array;
  /** 4 numbers per object. */
  boxes: Float64Array;
  /** A detection matched to a difficult object is ignored (neither TP nor FP); not a positive. */
  difficult: Uint8Array;
  /** Not a positive and never matched (for example blacklisted (image, class) pairs); optional. */
  uncounted?: Uint8Array;
  /** Per-object IoU threshold at the official 0.5 (for example a small-object rule); default 0.5. */
  minOverlap?: Float64Array;
  /**
   * `falseMatch[j] = 1`: a detection matching this object takes it, but is scored as unmatched (a false positive,
   * or ignored by its area): evaluators that record matches by annotation id and read id 0 as "none" do this.
   */
  falseMatch?: Uint8Array;
  /** The object's area as the task measures it (for `DiagnoseInput.areaRanges`). */
  area?: Float64Array;
  /** `ignoredTaken[j] = 1`: not a positive, and a detection matching it is ignored but takes it (outside the evaluated area range). */
  ignoredTaken?: Uint8Array;
}

/**
 * What a matcher sees: the cached overlaps of every detection with the objects of its image, in the
 * diagnosis's own layout.
 */
export interface MatchView {
  /** Objects of image i: `objList[objStart[i] .. objStart[i + 1])`, annotation order. */
  objStart: Uint32Array;
  objList: Uint32Array;
  /** IoU of detection d with the k-th object of its image: `iou[iouOff[d] + k]`. */
  iouOff: Uint32Array;
  iou: Float64Array;
  /** The best same-class object of detection d over all objects of its image (first wins ties; -1: none), and its IoU. */
  bestSame: Int32Array;
  bestSameIoU: Float64Array;
  /** Per object: its IoU threshold at the official 0.5 (`DiagnoseObjects.minOverlap`, default 0.5). */
  objThr: Float64Array;
  detClass: Int32Array;
  objClass: Int32Array;
  /**
   * Per object: 1 when it is ignored in this pass (difficult or crowd, or outside the area range the pass
   * evaluates); a matcher that prefers regular objects reads it. Absent: the objects' `difficult` flags.
   */
  objIgnored?: Uint8Array;
}

/**
 * A task's official matching of one detection, as the diagnosis replays it at any IoU threshold `t` (0.5 =
 * the official one): detections are visited image by image in rank order; `matchedBy[j] >= 0` marks object j
 * taken by an earlier detection.
 */
export interface DetectionMatcher {
  /** A name for messages and tests. */
  name: string;
  /**
   * The object detection `d` (of image `image`) matches at threshold `t`, or -1 (a false positive). The diagnosis
   * then scores: a difficult object → ignored; an object already taken → false positive; else a true positive.
   */
  match(view: MatchView, d: number, image: number, t: number, matchedBy: Int32Array): number;
  /**
   * True when the object `match` returns is always the detection's best same-class object (`bestSame`), whatever
   * was matched before: the diagnosis then sweeps thresholds in one pass.
   */
  bestSameObject: boolean;
}

export interface DiagnoseInput {
  /** Class names in the official order. */
  classes: readonly string[];
  /** Image ids in test-set order. */
  images: readonly string[];
  /** Each image's file name in the images folder, when it is not `<id>.jpg` (crops of the `top` section). */
  imageFiles?: readonly string[];
  /** Image width and height from the annotation (needed by the size analysis only). */
  imageWidth?: Float64Array;
  imageHeight?: Float64Array;
  /** The task's official matching (`@cvdevkit/metrics` has the greedy ones of the common devkits). */
  match: DetectionMatcher;
  detections: DiagnoseDetections;
  objects: DiagnoseObjects;
  /** Hoiem's similar classes: groups of class positions; two classes are similar when a group holds both. */
  similarGroups: readonly (readonly number[])[];
  /** How the task averages per-class APs: `'numeric'` (the mean of the non-NaN APs) or `'all'` (NaN propagates). */
  meanRule: 'numeric' | 'all';
  /** The task's AP function on (recall, precision); default the area under the precision envelope. */
  ap?: (recall: ArrayLike<number>, precision: ArrayLike<number>) => number;
  /**
   * AP as the mean of the precision sampled at fixed recall points, when the task computes it from the counts
   * (for example with an epsilon in the precision's denominator) and averages the samples of all classes together:
   * it then replaces `ap` for the official per-class APs and `meanRule` for their mean. `ap` stays the AP of a
   * curve given as (recall, precision), for Hoiem's normalised precision.
   */
  sampledAp?: SampledAveragePrecision;
  /** Box layout: `'x1y1x2y2'` (default: corners, +1-pixel widths) or `'xywh'` (corner, width, height; no +1). */
  boxFormat?: 'x1y1x2y2' | 'xywh';
  /**
   * The task's IoU of detections with objects of one image, row-major (`out[d * objs.length + k]`), when it is
   * not the box IoU of the box convention: crowd regions measured over the detection's area, masks, …
   */
  overlaps?: (image: number, dets: Uint32Array, objs: Uint32Array) => Float64Array;
  /** The IoU thresholds the task's headline AP averages (for example 0.5:0.05:0.95); absent: 0.5 alone. */
  thresholds?: readonly number[];
  /**
   * The task's object-area ranges (both ends inclusive), for AP per range: objects outside the range are ignored
   * but taken by the detection they match, unmatched detections outside it are ignored. Needs the objects' and
   * detections' `area`.
   */
  areaRanges?: readonly { name: string; lo: number; hi: number }[];
}

/** AP as the mean of precision samples at fixed recall points (`DiagnoseInput.sampledAp`). */
export interface SampledAveragePrecision {
  /**
   * A class's precision at the task's recall points from its rows in rank order (`tp[i]`, `fp[i]` 0 or 1; a row
   * with neither is an ignored detection) and its positive count; undefined when the class is left out of every
   * mean (no positive).
   */
  sample(tp: ArrayLike<number>, fp: ArrayLike<number>, npos: number): Float64Array | undefined;
  /**
   * The mean of samples, `samples[t][c]` for threshold t and class c (undefined: left out): one class at one
   * threshold is its AP; all classes is the task's mean AP. NaN when nothing is left.
   */
  mean(samples: readonly (readonly (Float64Array | undefined)[])[]): number;
}

/** One class of a classification size analysis: its image-set lines and how much of each image its objects cover. */
export interface ClassificationSizeClass {
  key: string;
  /** Label per image-set line: 1, -1 or 0 (difficult only). */
  gt: Int8Array;
  /** Score per image-set line (`-Inf` where the results have none), in the official order. */
  score: Float64Array;
  /** The image position (into the shared image list) of each line. */
  image: Int32Array;
  /** Union of the class's box areas over the image area, per image position. */
  coverage: Float64Array;
}

/** What every analysis request carries for the report the analysis builds. */
interface AnalysisRequestBase {
  dataset: string;
  task: string;
  /** The metric the official numbers are computed with. */
  metric: string;
  versions: Record<string, string>;
  /** The task's own phases (reading, …); the analysis adds its own and the total. */
  timings?: Record<string, number>;
  extra?: Record<string, unknown>;
  /** Diagnostics for the report (for example an images folder that does not exist). */
  diagnostics?: Diagnostic[];
}

/** `analyze` of a detection task: the diagnosis input and what the task knows about it. */
export interface DetectionAnalysisRequest extends AnalysisRequestBase {
  kind: 'detection';
  input: DiagnoseInput;
  /** The sections the task supports (default: every section). */
  sections?: readonly string[];
  /** Why a section cannot run on these inputs (section → reason), written into the analysis notes when it is left out. */
  unavailable?: Readonly<Record<string, string>>;
  /** A note per section, added when that section ran (for example why a section's result is empty). */
  sectionNotes?: Readonly<Record<string, string>>;
  /** Readable names of the classes (same order as `input.classes`), shown beside the keys. */
  classNames?: readonly (string | undefined)[];
  /**
   * The headline the task's evaluation gives, in place of the generic `mAP`: the mean and the median of the
   * classes' official APs under these summary keys (`mean` and `median` of `@cvdevkit/metrics`), with their meanings.
   */
  headline?: { mean: string; median: string; meanDescription: string; medianDescription: string };
  /**
   * The evaluation's own names for some of the analysis's summary keys (`{ 'mAP@[0.5:0.95]': 'AP', mAP: 'AP50' }`):
   * those numbers are shown first, in this order, under these names (a key whose name is already taken is dropped).
   */
  summaryNames?: Readonly<Record<string, string>>;
}

/** `analyze` of a classification task: AP against the object size (the only section). */
export interface ClassificationSizeRequest extends AnalysisRequestBase {
  kind: 'classification-size';
  classes: ClassificationSizeClass[];
  /** The task's AP function; default the area under the precision envelope. */
  ap?: (recall: ArrayLike<number>, precision: ArrayLike<number>) => number;
}

/**
 * What a task's `analyze` hook returns: the matching records and metadata, in core types. The CLI hands it to
 * `@cvdevkit/analysis` (`runAnalysis`), which diagnoses it and builds the report; a plugin never imports analysis.
 */
export type AnalysisRequest = DetectionAnalysisRequest | ClassificationSizeRequest;
