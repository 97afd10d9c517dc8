// The paired bootstrap as main had it before the replicate kernels were reworked (frozen copy, for the
// benchmark's side-by-side baseline only): the seeded stream with its state in object fields, the VOCap
// replicate walking every ranked block, the ADE20K replicate running collect_eval_bdry.m in full per
// class. Ranked (VOC / ILSVRC AP) and boundary (ADE20K) kinds only.
import { BLOCK_START, OUTCOME_FP, OUTCOME_TP, averagePrecisionByName, unpackF64, unpackU32, unpackU8 } from '@cvdevkit/metrics';
import { collectBoundaryScores } from '../../boundary/dist/index.js';

class SeededRandom {
    s0;
    s1;
    s2;
    s3;
    constructor(seed) {
        let x = seed >>> 0;
        const next = () => {
            x = (x + 0x9e3779b9) >>> 0;
            let z = x;
            z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
            z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
            return (z ^ (z >>> 16)) >>> 0;
        };
        this.s0 = next();
        this.s1 = next();
        this.s2 = next();
        this.s3 = next();
    }
    /** The next 32-bit unsigned integer. */
    nextUint32() {
        const result = Math.imul(rotl(Math.imul(this.s1, 5) >>> 0, 7), 9) >>> 0;
        const t = (this.s1 << 9) >>> 0;
        this.s2 = (this.s2 ^ this.s0) >>> 0;
        this.s3 = (this.s3 ^ this.s1) >>> 0;
        this.s1 = (this.s1 ^ this.s2) >>> 0;
        this.s0 = (this.s0 ^ this.s3) >>> 0;
        this.s2 = (this.s2 ^ t) >>> 0;
        this.s3 = rotl(this.s3, 11);
        return result;
    }
    /** A uniform integer in [0, n), n ≤ 2^32. */
    below(n) {
        const limit = Math.floor(0x100000000 / n) * n;
        for (;;) {
            const r = this.nextUint32();
            if (r < limit)
                return r % n;
        }
    }
    /** Multiplicities of one replicate: n draws with replacement from n units, counted per unit. */
    resampleCounts(n, out = new Uint32Array(n)) {
        out.fill(0);
        const limit = Math.floor(0x100000000 / n) * n;
        for (let i = 0; i < n; i++) {
            let r = this.nextUint32();
            while (r >= limit)
                r = this.nextUint32();
            out[r % n]++;
        }
        return out;
    }
}
function rotl(x, k) {
    return ((x << k) | (x >>> (32 - k))) >>> 0;
}
function rankedReplicator(stats) {
    const classes = stats.classes.map((c) => {
        const image = unpackU32(c.image);
        const flags = unpackU8(c.flags);
        const starts = [];
        for (let i = 0; i < flags.length; i++)
            if (flags[i] & BLOCK_START)
                starts.push(i);
        starts.push(flags.length);
        return { image, flags, blockStart: Uint32Array.from(starts), posImage: unpackU32(c.posImage), posCount: unpackU32(c.posCount) };
    });
    const buffers = { a: new Float64Array(1024), b: new Float64Array(1024) };
    const fast = stats.ap === 'ap-voc2010';
    const ap = averagePrecisionByName(stats.ap);
    return {
        images: stats.images,
        classes: stats.classes.map((c) => c.key),
        evaluate(w, out) {
            for (let k = 0; k < classes.length; k++) {
                const c = classes[k];
                let npos = 0;
                for (let j = 0; j < c.posImage.length; j++)
                    npos += c.posCount[j] * w[c.posImage[j]];
                out[k] = fast && npos > 0 ? replicateVocAp(c, w, npos, buffers) : replicateCurveAp(c, w, npos, buffers, ap);
            }
        },
    };
}
/**
 * The generic replicate: the expanded PR curve in the official `cumsum` form (metrics
 * precisionRecall), each block repeated w[image] times, handed to the task's AP function.
 */
function replicateCurveAp(c, w, npos, buf, ap) {
    let len = 0;
    const nb = c.blockStart.length - 1;
    for (let b = 0; b < nb; b++)
        len += (c.blockStart[b + 1] - c.blockStart[b]) * w[c.image[c.blockStart[b]]];
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
                if (o === OUTCOME_TP)
                    ctp++;
                else if (o === OUTCOME_FP)
                    cfp++;
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
 * (1 − rec_end)·0 adds +0. Hot kernel: one pass over the ranked entries, FP runs added in O(1).
 */
function replicateVocAp(c, w, npos, buf) {
    const nb = c.blockStart.length - 1;
    let rec = buf.a;
    let pre = buf.b;
    let n = 0;
    let ctp = 0;
    let cfp = 0;
    for (let b = 0; b < nb; b++) {
        const s = c.blockStart[b];
        const e = c.blockStart[b + 1];
        const times = w[c.image[s]];
        if (times === 0)
            continue;
        if (e - s === 1) {
            const o = c.flags[s] & 3;
            if (o === OUTCOME_FP)
                cfp += times;
            else if (o === OUTCOME_TP) {
                if (n + times > rec.length)
                    ({ a: rec, b: pre } = grow(buf, n + times));
                for (let t = 0; t < times; t++) {
                    ctp++;
                    rec[n] = ctp / npos;
                    pre[n] = ctp / (cfp + ctp);
                    n++;
                }
            }
            continue;
        }
        for (let t = 0; t < times; t++) {
            for (let i = s; i < e; i++) {
                const o = c.flags[i] & 3;
                if (o === OUTCOME_FP)
                    cfp++;
                else if (o === OUTCOME_TP) {
                    if (n + 1 > rec.length)
                        ({ a: rec, b: pre } = grow(buf, n + 1));
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
        if (pre[i] > env)
            env = pre[i];
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
function grow(buf, need) {
    const a = new Float64Array(need * 2);
    const b = new Float64Array(need * 2);
    a.set(buf.a);
    b.set(buf.b);
    buf.a = a;
    buf.b = b;
    return buf;
}
function boundaryReplicator(stats) {
    const nt = stats.thresholds.length;
    const thresholds = Float64Array.from(stats.thresholds);
    const entryImage = unpackU32(stats.entryImage);
    const entryClass = unpackU32(stats.entryClass);
    const counts = unpackF64(stats.counts);
    const zeroArray = new Float64Array(nt);
    const zero = { cntR: zeroArray, sumR: zeroArray, cntP: zeroArray, sumP: zeroArray };
    // Per class: image → its counts (images without an entry have all-zero counts).
    const byClass = stats.classes.map(() => new Map());
    for (let e = 0; e < entryImage.length; e++) {
        const o = e * 4 * nt;
        byClass[entryClass[e]].set(entryImage[e], {
            cntR: counts.subarray(o, o + nt),
            sumR: counts.subarray(o + nt, o + 2 * nt),
            cntP: counts.subarray(o + 2 * nt, o + 3 * nt),
            sumP: counts.subarray(o + 3 * nt, o + 4 * nt),
        });
    }
    // A class without ground truth in any image has recall 0 at every threshold of every replicate, so
    // F = 2·p·0/(p + 0 + …) = +0 everywhere and its F-ODS is +0: skip collect_eval_bdry.m (its maxF
    // interpolates 99 × 100 points) for it.
    const hasGt = byClass.map((m) => [...m.values()].some((c) => c.sumR.some((v) => v !== 0)));
    return {
        images: stats.images,
        classes: stats.classes,
        evaluate(w, out) {
            byClass.forEach((m, k) => {
                if (!hasGt[k]) {
                    out[k] = 0;
                    return;
                }
                // collect_eval_bdry.m over the replicate's images in order, repeated images consecutive.
                const list = [];
                for (let i = 0; i < stats.images; i++) {
                    const c = m.get(i) ?? zero;
                    for (let t = 0; t < w[i]; t++)
                        list.push(c);
                }
                out[k] = collectBoundaryScores(list, thresholds).odsF;
            });
        },
    };
}

function createReplicator(stats) {
  if (stats.kind === 'ranked') return rankedReplicator(stats);
  if (stats.kind === 'boundary') return boundaryReplicator(stats);
  throw new RangeError(`baseline: per-image kind ${stats.kind} not included`);
}

/** B replicates of k methods on the same draws: summary[b·k + j] (the mean of the per-class values, NaN skipped as VOC's mAP or kept as ILSVRC's / ADE20K's). */
export function baselineBootstrap(stats, replicates, seed) {
  const reps = stats.map(createReplicator);
  const n = reps[0].images;
  const k = reps.length;
  const c = reps[0].classes.length;
  const random = new SeededRandom(seed);
  const summary = new Float64Array(replicates * k);
  const w = new Uint32Array(n);
  const values = new Float64Array(c);
  for (let b = 0; b < replicates; b++) {
    random.resampleCounts(n, w);
    for (let j = 0; j < k; j++) {
      reps[j].evaluate(w, values);
      let s = 0;
      let m = 0;
      for (const v of values) {
        if (Number.isNaN(v) && stats[j].summary !== 'mean') continue;
        s += v;
        m++;
      }
      summary[b * k + j] = m === 0 ? NaN : s / m;
    }
  }
  return summary;
}
