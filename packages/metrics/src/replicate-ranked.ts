import { inputError, type Replicator } from '@cvdevkit/core';
import { averagePrecisionArea, averagePrecisionByName } from './ap.js';
import { BLOCK_START, OUTCOME_FP, OUTCOME_TP, unpackArray, unpackU32, unpackU8, type PackedArray, type RankedPerImage } from './per-image.js';

/** An AP function on (recall, precision). */
type ApFunction = (recall: ArrayLike<number>, precision: ArrayLike<number>) => number;

interface RankedClass {
  image: Uint32Array;
  flags: Uint8Array;
  /** Start of each block, plus the end. */
  blockStart: Uint32Array;
  posImage: Uint32Array;
  posCount: Uint32Array;
  /** The VOCap kernel's view of the ranking (see `vocApPlan`). */
  plan: VocApPlan;
}

/**
 * The ranking as the VOCap kernel walks it. Ignored entries and the false positives after the last
 * true positive never change a TP row's recall or precision, so they are dropped; the blocks without a
 * TP only add to the FP count (`fpImage`: one image per FP entry, in rank order); the blocks with a TP
 * (`tpBlock*`, in rank order) are replayed entry by entry, `tpBlockFpEnd` marking how many of the
 * `fpImage` entries rank before each. `single` marks a block that is one TP entry (the common case).
 */
interface VocApPlan {
  fpImage: Uint32Array;
  tpBlockImage: Uint32Array;
  tpBlockFpEnd: Uint32Array;
  tpBlockStart: Uint32Array;
  single: Uint8Array;
  /** The outcomes of the TP blocks' entries, concatenated (`tpBlockStart[t]` … `tpBlockStart[t + 1]`). */
  outcomes: Uint8Array;
}

function vocApPlan(image: Uint32Array, flags: Uint8Array, blockStart: Uint32Array): VocApPlan {
  const fp: number[] = [];
  const pending: number[] = [];
  const tpImage: number[] = [];
  const tpFpEnd: number[] = [];
  const tpStart: number[] = [];
  const single: number[] = [];
  const outcomes: number[] = [];
  for (let b = 0; b + 1 < blockStart.length; b++) {
    const s = blockStart[b];
    const e = blockStart[b + 1];
    let tps = 0;
    for (let i = s; i < e; i++) if ((flags[i] & 3) === OUTCOME_TP) tps++;
    if (tps === 0) {
      for (let i = s; i < e; i++) if ((flags[i] & 3) === OUTCOME_FP) pending.push(image[s]);
      continue;
    }
    fp.push(...pending);
    pending.length = 0;
    tpImage.push(image[s]);
    tpFpEnd.push(fp.length);
    tpStart.push(outcomes.length);
    for (let i = s; i < e; i++) if ((flags[i] & 3) !== 0) outcomes.push(flags[i] & 3);
    single.push(e - s === 1 ? 1 : 0);
  }
  tpStart.push(outcomes.length);
  return {
    fpImage: Uint32Array.from(fp),
    tpBlockImage: Uint32Array.from(tpImage),
    tpBlockFpEnd: Uint32Array.from(tpFpEnd),
    tpBlockStart: Uint32Array.from(tpStart),
    single: Uint8Array.from(single),
    outcomes: Uint8Array.from(outcomes),
  };
}

/**
 * The replicator of ranked per-image statistics (AP tasks): each class's stored ranking replayed with every
 * block repeated `w[image]` times, handed to `ap` (default: the AP function the statistics name). VOCap
 * (`averagePrecisionArea`) runs a kernel that visits the true positives only, bit for bit the same.
 */
export function rankedReplicator(stats: RankedPerImage, ap?: ApFunction): Replicator {
  checkRankedPerImage(stats);
  return replicator(stats, ap ?? averagePrecisionByName(stats.ap));
}

const P = 'extra.perImage';
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const shown = (v: unknown): string => (v === null || v === undefined ? 'nothing' : Array.isArray(v) ? `an array of ${v.length}` : typeof v === 'object' ? 'an object' : JSON.stringify(v));

function bad(field: string, expected: string, found: string): never {
  throw inputError({ code: 'input/report-field', field, expected, found });
}

/**
 * Ranked statistics read back from a report: one entry per class, packed arrays with plausible headers, every
 * image index below the image count (a hostile report is an input error naming the field, never a crash).
 */
export function checkRankedPerImage(per: RankedPerImage): void {
  if (typeof per.ap !== 'string') bad(`${P}.ap`, 'an AP rule name', shown(per.ap));
  try {
    averagePrecisionByName(per.ap);
  } catch {
    bad(`${P}.ap`, 'an AP rule the ranked statistics know (ap-voc2010, ap-voc2007)', shown(per.ap));
  }
  if (!Array.isArray(per.classes)) bad(`${P}.classes`, 'an array', shown(per.classes));
  const images = per.images;
  per.classes.forEach((c: unknown, i: number) => {
    const at = `${P}.classes[${i}]`;
    if (!isObject(c)) bad(at, 'an object', shown(c));
    if (typeof c.key !== 'string') bad(`${at}.key`, 'a string', shown(c.key));
    const a: Record<string, ArrayLike<number>> = {};
    for (const k of ['image', 'flags', 'score', 'posImage', 'posCount']) a[k] = unpacked(c[k], `${at}.${k}`, k === 'flags' ? 'u8' : k === 'score' ? 'f64' : 'u32');
    if (a.flags.length !== a.image.length || a.score.length !== a.image.length) bad(`${at}.flags`, `${a.image.length} entries (as image)`, String(a.flags.length));
    if (a.posCount.length !== a.posImage.length) bad(`${at}.posCount`, `${a.posImage.length} entries (as posImage)`, String(a.posCount.length));
    for (const k of ['image', 'posImage']) {
      const arr = a[k];
      for (let j = 0; j < arr.length; j++) if (arr[j] >= images) bad(`${at}.${k}[${j}]`, `an image index in 0..${images - 1} (${P}.images is ${images})`, String(arr[j]));
    }
  });
}

/** A packed array's values (inflated no further than its declared length); any problem names the field. */
function unpacked(v: unknown, field: string, type: 'u8' | 'u32' | 'f64'): ArrayLike<number> {
  if (!isObject(v)) bad(field, 'a packed array {type, length, data}', shown(v));
  if (v.type !== type) bad(`${field}.type`, JSON.stringify(type), shown(v.type));
  if (!(typeof v.length === 'number' && Number.isSafeInteger(v.length) && v.length >= 0)) bad(`${field}.length`, 'a count', shown(v.length));
  if (typeof v.data !== 'string') bad(`${field}.data`, 'a base64 string', shown(v.data));
  try {
    return unpackArray(v as unknown as PackedArray);
  } catch (e) {
    return bad(field, 'a packed array whose data inflates to its declared length', (e as Error).message);
  }
}

function replicator(stats: RankedPerImage, ap: ApFunction): Replicator {
  const fast = ap === averagePrecisionArea;
  const classes: RankedClass[] = stats.classes.map((c) => {
    const image = unpackU32(c.image);
    const flags = unpackU8(c.flags);
    const starts: number[] = [];
    for (let i = 0; i < flags.length; i++) if (flags[i] & BLOCK_START) starts.push(i);
    starts.push(flags.length);
    const blockStart = Uint32Array.from(starts);
    const plan = fast ? vocApPlan(image, flags, blockStart) : EMPTY_PLAN;
    return { image, flags, blockStart, posImage: unpackU32(c.posImage), posCount: unpackU32(c.posCount), plan };
  });
  const buffers = { a: new Float64Array(1024), b: new Float64Array(1024) };
  return {
    images: stats.images,
    classes: stats.classes.map((c) => c.key),
    evaluate(w, out) {
      for (let k = 0; k < classes.length; k++) {
        const c = classes[k];
        let npos = 0;
        for (let j = 0; j < c.posImage.length; j++) npos += c.posCount[j] * w[c.posImage[j]];
        out[k] = fast && npos > 0 ? replicateVocAp(c.plan, w, npos, buffers) : replicateCurveAp(c, w, npos, buffers, ap);
      }
    },
  };
}

const EMPTY_PLAN: VocApPlan = {
  fpImage: new Uint32Array(0),
  tpBlockImage: new Uint32Array(0),
  tpBlockFpEnd: new Uint32Array(0),
  tpBlockStart: new Uint32Array(1),
  single: new Uint8Array(0),
  outcomes: new Uint8Array(0),
};

/**
 * The generic replicate: the expanded PR curve in the official `cumsum` form (metrics
 * precisionRecall), each block repeated w[image] times, handed to the task's AP function.
 */
function replicateCurveAp(c: RankedClass, w: Uint32Array, npos: number, buf: { a: Float64Array; b: Float64Array }, ap: ApFunction): number {
  let len = 0;
  const nb = c.blockStart.length - 1;
  for (let b = 0; b < nb; b++) len += (c.blockStart[b + 1] - c.blockStart[b]) * w[c.image[c.blockStart[b]]];
  if (buf.a.length < len) {
    buf.a = new Float64Array(len * 2);
    buf.b = new Float64Array(len * 2);
  }
  const recall = buf.a;
  const precision = buf.b;
  let ctp = 0;
  let cfp = 0;
  let r = 0;
  for (let b = 0; b < nb; b++) {
    const s = c.blockStart[b];
    const e = c.blockStart[b + 1];
    const times = w[c.image[s]];
    for (let t = 0; t < times; t++) {
      for (let i = s; i < e; i++) {
        const o = c.flags[i] & 3;
        if (o === OUTCOME_TP) ctp++;
        else if (o === OUTCOME_FP) cfp++;
        recall[r] = ctp / npos;
        precision[r] = ctp / (cfp + ctp);
        r++;
      }
    }
  }
  return ap(recall.subarray(0, len), precision.subarray(0, len));
}

/**
 * VOCap (metrics averagePrecisionArea) of the expanded curve, bit for bit, visiting only its true
 * positives (npos > 0): the recall changes exactly at the TP rows, and the precision envelope at a TP
 * row is max(its precision, the envelope at the next TP row), because FP rows after it have lower and
 * ignored rows equal precision. The terms are summed left to right as VOCap does; the sentinel's term
 * (1 − rec_end)·0 adds +0. Hot kernel (one function on purpose: it runs B·k·classes times): the FP
 * entries between two TP blocks are a gather-sum of their images' multiplicities, a TP block is
 * replayed w[image] times.
 */
function replicateVocAp(plan: VocApPlan, w: Uint32Array, npos: number, buf: { a: Float64Array; b: Float64Array }): number {
  const { fpImage, tpBlockImage, tpBlockFpEnd, tpBlockStart, single, outcomes } = plan;
  const nb = tpBlockImage.length;
  let rec = buf.a;
  let pre = buf.b;
  let n = 0;
  let ctp = 0;
  let cfp = 0;
  let j = 0;
  for (let t = 0; t < nb; t++) {
    const end = tpBlockFpEnd[t];
    for (; j < end; j++) cfp += w[fpImage[j]];
    const times = w[tpBlockImage[t]];
    if (times === 0) continue;
    if (single[t] === 1) {
      if (n + times > rec.length) ({ a: rec, b: pre } = grow(buf, n + times));
      for (let r = 0; r < times; r++) {
        ctp++;
        rec[n] = ctp / npos;
        pre[n] = ctp / (cfp + ctp);
        n++;
      }
      continue;
    }
    const s = tpBlockStart[t];
    const e = tpBlockStart[t + 1];
    if (n + times * (e - s) > rec.length) ({ a: rec, b: pre } = grow(buf, n + times * (e - s)));
    for (let r = 0; r < times; r++) {
      for (let i = s; i < e; i++) {
        if (outcomes[i] === OUTCOME_FP) cfp++;
        else {
          ctp++;
          rec[n] = ctp / npos;
          pre[n] = ctp / (cfp + ctp);
          n++;
        }
      }
    }
  }
  // envelope from the right (the sentinel precision is 0; precisions here are never NaN)
  let env = 0;
  for (let i = n - 1; i >= 0; i--) {
    if (pre[i] > env) env = pre[i];
    pre[i] = env;
  }
  let ap = 0;
  let prev = 0;
  for (let i = 0; i < n; i++) {
    ap += (rec[i] - prev) * pre[i];
    prev = rec[i];
  }
  return ap;
}

function grow(buf: { a: Float64Array; b: Float64Array }, need: number): { a: Float64Array; b: Float64Array } {
  const a = new Float64Array(need * 2);
  const b = new Float64Array(need * 2);
  a.set(buf.a);
  b.set(buf.b);
  buf.a = a;
  buf.b = b;
  return buf;
}
