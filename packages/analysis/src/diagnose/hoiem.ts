import { averagePrecisionArea } from '@cvdevkit/metrics';
import { classAp, classRows, normalizedAp, type ApFunction } from './class-ap.js';
import { BG, HOIEM_TYPES, LOC, OTH, SIM, hoiemTypes } from './fp-types.js';
import { meanOf } from './input.js';
import { FP, IGNORED, SKIPPED, TP, type Prepared } from './prepare.js';
import { characteristicsAnalysis } from './characteristics.js';
import type { TypeCounts, HoiemClass, HoiemResult } from '@cvdevkit/core';
export type { TypeCounts, HoiemClass, HoiemResult };

/** Top-N false positives of the trend (Hoiem Fig. 2): 25, 50, …, 3200. */
export const TREND_COUNTS: readonly number[] = [25, 50, 100, 200, 400, 800, 1600, 3200];




function zero(): TypeCounts {
  return { Loc: 0, Sim: 0, Oth: 0, BG: 0 };
}
function add(a: TypeCounts, t: number): void {
  if (t > 0) a[HOIEM_TYPES[t - 1]]++;
}

/** Hoiem, Chodpathumwan & Dai (ECCV 2012) on the official matching (spec analysis.md §4). */
export function hoiemAnalysis(p: Prepared, types: Uint8Array = hoiemTypes(p)): HoiemResult {
  const ap: ApFunction = p.input.ap ?? averagePrecisionArea;
  const nbar = 0.15 * p.nImg;
  const perClass: HoiemClass[] = [];
  const drops = { loc: new Uint8Array(p.nDet), sim: new Uint8Array(p.nDet), bg: new Uint8Array(p.nDet) };
  for (let d = 0; d < p.nDet; d++) {
    if (types[d] === LOC) drops.loc[d] = 1;
    else if (types[d] === SIM) drops.sim[d] = 1;
    else if (types[d] === OTH || types[d] === BG) drops.bg[d] = 1;
  }
  const { fixed, fixDrop } = fixLocalisation(p, types);
  for (let c = 0; c < p.nCls; c++) {
    const npos = p.npos[c];
    const counts = zero();
    const top = { TP: 0, ...zero() };
    const trend = TREND_COUNTS.map(zero);
    let seen = 0;
    let nfp = 0;
    for (let r = p.clsStart[c]; r < p.clsStart[c + 1]; r++) {
      const d = p.clsList[r];
      const o = p.outcome[d];
      if (o === IGNORED || o === SKIPPED) continue;
      if (seen < npos) {
        if (o === TP) top.TP++;
        else add(top, types[d]);
      }
      seen++;
      if (o === FP) {
        add(counts, types[d]);
        TREND_COUNTS.forEach((n, k) => {
          if (nfp < n) add(trend[k], types[d]);
        });
        nfp++;
      }
    }
    const base = classAp(p, c, p.outcome, npos, ap);
    const rows = classRows(p, c, p.outcome);
    perClass.push({
      key: p.input.classes[c],
      npos,
      counts,
      top,
      trend,
      ap: base,
      impact: {
        removeLoc: classAp(p, c, p.outcome, npos, ap, drops.loc),
        removeSim: classAp(p, c, p.outcome, npos, ap, drops.sim),
        removeBG: classAp(p, c, p.outcome, npos, ap, drops.bg),
        fixLoc: classAp(p, c, fixed, npos, ap, fixDrop),
      },
      apn: normalizedAp(rows.tp, rows.fp, npos, nbar, ap),
    });
  }
  return { nbar, trendCounts: [...TREND_COUNTS], overall: overallOf(p, perClass), perClass, characteristics: characteristicsAnalysis(p, nbar) };
}

/** L-fix: each Loc FP whose best same-class object is a positive not yet matched (officially or by an earlier fix) becomes a TP; the other Loc FPs go. */
function fixLocalisation(p: Prepared, types: Uint8Array): { fixed: Uint8Array; fixDrop: Uint8Array } {
  const fixed = p.outcome.slice();
  const fixDrop = new Uint8Array(p.nDet);
  const taken = new Uint8Array(p.nObj);
  for (let j = 0; j < p.nObj; j++) if (p.matchedBy[j] >= 0) taken[j] = 1;
  for (let r = 0; r < p.nDet; r++) {
    const d = p.clsList[r];
    if (types[d] !== LOC) continue;
    const j = p.bestSame[d];
    if (j >= 0 && p.positive[j] && !taken[j]) {
      taken[j] = 1;
      fixed[d] = TP;
    } else fixDrop[d] = 1;
  }
  return { fixed, fixDrop };
}

function overallOf(p: Prepared, perClass: HoiemClass[]): HoiemResult['overall'] {
  const counts = zero();
  const top = { TP: 0, ...zero() };
  const trend = TREND_COUNTS.map(zero);
  for (const c of perClass) {
    for (const k of HOIEM_TYPES) {
      counts[k] += c.counts[k];
      top[k] += c.top[k];
      c.trend.forEach((t, i) => (trend[i][k] += t[k]));
    }
    top.TP += c.top.TP;
  }
  const rule = p.input.meanRule;
  const m = (f: (c: HoiemClass) => number): number => meanOf(perClass.map(f), rule);
  const base = m((c) => c.ap);
  return {
    counts,
    top,
    trend,
    ap: base,
    gain: {
      removeLoc: m((c) => c.impact.removeLoc) - base,
      removeSim: m((c) => c.impact.removeSim) - base,
      removeBG: m((c) => c.impact.removeBG) - base,
      fixLoc: m((c) => c.impact.fixLoc) - base,
    },
    apn: m((c) => c.apn),
  };
}
