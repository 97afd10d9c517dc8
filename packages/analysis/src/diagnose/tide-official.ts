import { boxSize, FP, TP, type Prepared } from './prepare.js';
import { classAps, meanAps, setClassAp, setClassApOf, type ClassAps } from './sampled-ap.js';
import { emptyTable, TIDE_QUALIFIERS, type ErrorTable, type TideClassResult, type TideResult } from './tide-result.js';
import { E_BKG, E_BOTH, E_CLS, E_DUPE, E_LOC, E_MISS, TIDE_BG, TIDE_ERRORS } from './tide-run.js';

/** TIDE's error types on the official matching: per detection a type (-1: not an error) and a target object. */
export interface OfficialErrors {
  type: Int8Array;
  target: Int32Array;
  /** Cls/Loc winner per object (-1: none). */
  winner: Int32Array;
  /** Per object: 1 when it is a Miss. */
  miss: Uint8Array;
  /** The detections of each error type, in rank order (what a fix of that type walks). */
  ofType: Uint32Array[];
}

/** Types every official false positive (spec analysis.md §5) and picks the Cls/Loc winner of each object. */
export function officialTideErrors(p: Prepared): OfficialErrors {
  const { input, objStart, objList, iouOff, iou } = p;
  const det = input.detections;
  const ocls = input.objects.cls;
  const type = new Int8Array(p.nDet).fill(-1);
  const target = new Int32Array(p.nDet).fill(-1);
  const winner = new Int32Array(p.nObj).fill(-1);
  const claimed = new Uint8Array(p.nObj);
  // Types and targets do not depend on the order: detection order (the IoU cache's, read in sequence).
  for (let d = 0; d < p.nDet; d++) {
    if (p.outcome[d] !== FP) continue;
    const i = det.image[d];
    const o0 = objStart[i];
    const n = objStart[i + 1] - o0;
    if (n === 0) {
      type[d] = E_BKG;
      continue;
    }
    const c = det.cls[d];
    let clsV = -Infinity, clsJ = -1, dupV = -Infinity, allV = -Infinity;
    for (let k = 0; k < n; k++) {
      const j = objList[o0 + k];
      const v = iou[iouOff[d] + k];
      if (v > allV) allV = v;
      if (ocls[j] === c) {
        if (p.matchedBy[j] >= 0 && v > dupV) dupV = v;
      } else if (v > clsV) {
        clsV = v;
        clsJ = j;
      }
    }
    const loc = p.bestSameIoU[d];
    if (TIDE_BG <= loc && loc <= 0.5) {
      type[d] = E_LOC;
      target[d] = p.bestSame[d];
    } else if (clsV >= 0.5) {
      type[d] = E_CLS;
      target[d] = clsJ;
    } else if (dupV >= 0.5) type[d] = E_DUPE;
    else if (allV <= TIDE_BG) type[d] = E_BKG;
    else type[d] = E_BOTH;
  }
  // Lists and winners in rank order (an equal score keeps the earlier detection).
  const ofType: number[][] = TIDE_ERRORS.map(() => []);
  for (let r = 0; r < p.nDet; r++) {
    const d = p.rank[r];
    if (type[d] < 0) continue;
    ofType[type[d]].push(d);
    const j = target[d];
    if (j >= 0 && p.positive[j] && p.matchedBy[j] < 0) {
      claimed[j] = 1;
      if (winner[j] < 0 || det.score[d] > det.score[winner[j]]) winner[j] = d;
    }
  }
  const miss = new Uint8Array(p.nObj);
  for (let j = 0; j < p.nObj; j++) if (p.positive[j] && p.matchedBy[j] < 0 && !claimed[j]) miss[j] = 1;
  return { type, target, winner, miss, ofType: ofType.map((l) => Uint32Array.from(l)) };
}

interface FixSpec {
  /** Fix errors of this type (−1: none). */
  type: number;
  /** Only the errors whose object (or, without one, detection) is in this set. */
  only?: Uint8Array;
  perfectPrecision?: boolean;
  perfectRecall?: boolean;
}

/**
 * Which classes a fix touches, the objects it stops counting as missed per class (Miss), and the Cls
 * winners it moves to their object's class (inserted there by score).
 */
function fixFootprint(p: Prepared, e: OfficialErrors, spec: FixSpec): { touched: Uint8Array; missing: Float64Array; moved: number[][] } {
  const det = p.input.detections;
  const ocls = p.input.objects.cls;
  const only = spec.only;
  const touched = new Uint8Array(p.nCls);
  const missing = new Float64Array(p.nCls);
  // Cls winners move to their object's class, inserted by score.
  const moved: number[][] = p.input.classes.map(() => []);
  if (spec.type === E_MISS) {
    for (let j = 0; j < p.nObj; j++) {
      if (e.miss[j] && (!only || only[j])) {
        missing[ocls[j]]++;
        touched[ocls[j]] = 1;
      }
    }
  } else if (spec.type >= 0) {
    for (const d of e.ofType[spec.type]) {
      if (only && !only[d]) continue;
      touched[det.cls[d]] = 1;
      const j = e.target[d];
      if (spec.type === E_CLS && j >= 0 && e.winner[j] === d) {
        moved[ocls[j]].push(d);
        touched[ocls[j]] = 1;
      }
    }
  } else touched.fill(1);
  return { touched, missing, moved };
}

/** Per-class AP after one fix, on the official rows and AP function; classes the fix does not touch keep `baseAps`. */
// The hot loop over every ranked detection, run once per fix; the footprint of the fix is computed apart.
function fixedClassAps(p: Prepared, e: OfficialErrors, spec: FixSpec, baseAps: ClassAps): ClassAps {
  const det = p.input.detections;
  const only = spec.only;
  const { touched, missing, moved } = fixFootprint(p, e, spec);
  const out: ClassAps = { aps: Float64Array.from(baseAps.aps), ...(baseAps.samples ? { samples: baseAps.samples.slice() } : {}) };
  const tp = new Uint8Array(p.nDet + 1);
  const fp = new Uint8Array(p.nDet + 1);
  // Locals: the loop below runs once per ranked detection for every fix.
  const { clsStart, clsList, outcome } = p;
  const { type: etype, target, winner } = e;
  const score = det.score;
  const fixType = spec.type;
  const dropFps = spec.perfectPrecision === true;
  for (let c = 0; c < p.nCls; c++) {
    if (!touched[c]) continue;
    let n = 0;
    let ntp = 0;
    let m = 0;
    const mv = moved[c];
    const r1 = clsStart[c + 1];
    for (let r = clsStart[c]; r < r1; r++) {
      const d = clsList[r];
      while (m < mv.length && score[mv[m]] > score[d]) {
        tp[n] = 1;
        fp[n++] = 0;
        ntp++;
        m++;
      }
      const o = outcome[d];
      if (o !== FP) {
        const t = o === TP ? 1 : 0;
        tp[n] = t;
        fp[n++] = 0;
        ntp += t;
      } else if (dropFps) {
        // removed
      } else if (etype[d] !== fixType || (only !== undefined && only[d] === 0)) {
        tp[n] = 0;
        fp[n++] = 1;
      } else if (fixType === E_LOC && winner[target[d]] === d) {
        tp[n] = 1;
        fp[n++] = 0;
        ntp++;
      }
    }
    for (; m < mv.length; m++) {
      tp[n] = 1;
      fp[n++] = 0;
      ntp++;
    }
    const npos = spec.perfectRecall ? ntp : p.npos[c] - missing[c];
    setClassAp(p.input, out, c, tp.subarray(0, n), fp.subarray(0, n), npos);
  }
  return out;
}

/** `--tide-mode official` (default): TIDE's error types and fixes on the task's own AP and matching. */
// Long on purpose: the fixed sequence: baseline, six fixes, two special fixes, tables.
export function tideOfficialAnalysis(p: Prepared): TideResult {
  const e = officialTideErrors(p);
  const baseAps = classAps(p.input, p.nCls);
  for (let c = 0; c < p.nCls; c++) setClassApOf(p, baseAps, c, p.outcome, p.npos[c]);
  const base = meanAps(p.input, baseAps);
  const main = emptyTable();
  const fixedAp = { ...emptyTable(), FalsePos: 0, FalseNeg: 0 };
  const perClassFixed: Record<string, Float64Array> = {};
  TIDE_ERRORS.forEach((name, type) => {
    const aps = fixedClassAps(p, e, { type }, baseAps);
    perClassFixed[name] = aps.aps;
    fixedAp[name] = meanAps(p.input, aps);
    main[name] = Math.max(fixedAp[name] - base, 0);
  });
  const fpFixed = fixedClassAps(p, e, { type: -1, perfectPrecision: true }, baseAps);
  const fnFixed = fixedClassAps(p, e, { type: -1, perfectRecall: true }, baseAps);
  perClassFixed.FalsePos = fpFixed.aps;
  perClassFixed.FalseNeg = fnFixed.aps;
  fixedAp.FalsePos = meanAps(p.input, fpFixed);
  fixedAp.FalseNeg = meanAps(p.input, fnFixed);

  const counts = emptyTable();
  const perClassCounts = p.input.classes.map(() => emptyTable());
  for (let d = 0; d < p.nDet; d++) {
    if (e.type[d] < 0) continue;
    counts[TIDE_ERRORS[e.type[d]]]++;
    perClassCounts[p.input.detections.cls[d]][TIDE_ERRORS[e.type[d]]]++;
  }
  for (let j = 0; j < p.nObj; j++) {
    if (!e.miss[j]) continue;
    counts.Miss++;
    perClassCounts[p.input.objects.cls[j]].Miss++;
  }
  const perClass: TideClassResult[] = p.input.classes.map((key, c) => {
    const f = {} as TideClassResult['fixedAp'];
    const dAP = {} as TideClassResult['dAP'];
    for (const name of [...TIDE_ERRORS, 'FalsePos', 'FalseNeg'] as const) {
      f[name] = perClassFixed[name][c];
      dAP[name] = perClassFixed[name][c] - baseAps.aps[c];
    }
    return { key, ap: baseAps.aps[c], npos: p.npos[c], counts: perClassCounts[c], fixedAp: f, dAP };
  });
  return {
    mode: 'official',
    units: 'fraction',
    ap: base,
    main,
    special: { FalsePos: fixedAp.FalsePos - base, FalseNeg: fixedAp.FalseNeg - base },
    counts,
    fixedAp,
    perClass,
    qualifiers: officialQualifiers(p, e, base, baseAps),
    notes: [],
  };
}

function officialQualifiers(p: Prepared, e: OfficialErrors, base: number, baseAps: ClassAps): TideResult['qualifiers'] {
  const ob = p.input.objects.boxes;
  const db = p.input.detections.boxes;
  // the box sizes the qualifiers test, read once: each error's (its target object's, else its own), each object's
  let nErr = 0;
  for (const l of e.ofType) nErr += l.length;
  const errorDets = new Uint32Array(nErr);
  const errW = new Float64Array(nErr);
  const errH = new Float64Array(nErr);
  let k = 0;
  for (const l of e.ofType) {
    for (const d of l) {
      const j = e.target[d];
      const [w, h] = j >= 0 ? boxSize(p.input, ob, j) : boxSize(p.input, db, d);
      errorDets[k] = d;
      errW[k] = w;
      errH[k++] = h;
    }
  }
  const objW = new Float64Array(p.nObj);
  const objH = new Float64Array(p.nObj);
  for (let j = 0; j < p.nObj; j++) [objW[j], objH[j]] = boxSize(p.input, ob, j);
  return TIDE_QUALIFIERS.map((q) => {
    const detIn = new Uint8Array(p.nDet);
    const objIn = new Uint8Array(p.nObj);
    const counts = emptyTable();
    for (let k = 0; k < nErr; k++) {
      if (q.test(errW[k], errH[k])) {
        const d = errorDets[k];
        detIn[d] = 1;
        counts[TIDE_ERRORS[e.type[d]]]++;
      }
    }
    for (let j = 0; j < p.nObj; j++) {
      if (q.test(objW[j], objH[j])) {
        objIn[j] = 1;
        if (e.miss[j]) counts.Miss++;
      }
    }
    const main = {} as ErrorTable;
    TIDE_ERRORS.forEach((name, type) => {
      const aps = fixedClassAps(p, e, { type, only: type === E_MISS ? objIn : detIn }, baseAps);
      main[name] = Math.max(meanAps(p.input, aps) - base, 0);
    });
    return { name: q.name, group: q.group, main, counts };
  });
}

