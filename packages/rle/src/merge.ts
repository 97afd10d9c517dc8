/** Union or intersection of RLEs: pycocotools `rleMerge`, folded left over the list. */
import { RleError } from './errors.js';
import type { Rle } from './rle.js';
import { scratchU32 } from './scratch.js';

const EMPTY: Rle = { h: 0, w: 0, counts: new Uint32Array(0) };

function walkFailed(): never {
  throw new RleError('counts-sum', 'merge: the RLEs cover different numbers of pixels', { expected: 'counts summing to h*w in every RLE' });
}

/**
 * The union (default) or intersection of `rles`, as pycocotools `merge`: one RLE is copied; RLEs of
 * different sizes give an empty 0×0 RLE (as pycocotools; IoU against it is −1); an empty list too.
 * Throws RleError 'counts-sum' where pycocotools would loop forever (counts not covering the same total).
 */
export function merge(rles: readonly Rle[], intersect = false): Rle {
  const n = rles.length;
  if (n === 0) return { ...EMPTY, counts: new Uint32Array(0) };
  const h = rles[0].h;
  const w = rles[0].w;
  if (n === 1) return { h, w, counts: rles[0].counts.slice() };
  for (let i = 1; i < n; i++) if (rles[i].h !== h || rles[i].w !== w) return { ...EMPTY, counts: new Uint32Array(0) };
  // A = result so far (a copy in `acc`), B = rles[i]; the output goes to `out`, then the two swap roles.
  let acc = rles[0].counts.slice();
  let am = acc.length;
  for (let i = 1; i < n; i++) {
    const B = rles[i].counts;
    const bm = B.length;
    let out = scratchU32(am + bm + 1);
    let ca = am > 0 ? acc[0] : 0;
    let cb = bm > 0 ? B[0] : 0;
    let v = 0;
    let va = 0;
    let vb = 0;
    let m = 0;
    let a = 1;
    let b = 1;
    let cc = 0;
    let ct = 1;
    let steps = am + bm + 2;
    while (ct > 0) {
      if (--steps < 0) walkFailed();
      const c = ca < cb ? ca : cb;
      cc += c;
      ca -= c;
      if (ca === 0 && a < am) {
        ca = acc[a++];
        va ^= 1;
      }
      cb -= c;
      if (cb === 0 && b < bm) {
        cb = B[b++];
        vb ^= 1;
      }
      ct = (ca + cb) >>> 0; // uint32 in C
      const vp = v;
      v = intersect ? va & vb : va | vb;
      if (v !== vp || ct === 0) {
        if (m === out.length) out = scratchU32(m + 1, out);
        out[m++] = cc;
        cc = 0;
      }
    }
    acc = out.slice(0, m);
    am = m;
  }
  return { h, w, counts: acc };
}
