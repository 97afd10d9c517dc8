import { rankDescending } from '@cvdevkit/metrics';
import type { Prepared } from './prepare.js';

const cache = new WeakMap<Prepared, Uint32Array>();

/**
 * The detections by descending score, ties in input order, NaN scores last: the order of the `confusion` and `f1`
 * sections, which work on the score axis whatever the task's official ranking is. It is the official ranking
 * itself when the task gives none (the default ranking is this sort).
 */
export function scoreOrder(p: Prepared): Uint32Array {
  if (p.input.detections.rank === undefined) return p.rank;
  let order = cache.get(p);
  if (!order) {
    order = rankDescending(p.input.detections.score, { nan: 'last' });
    cache.set(p, order);
  }
  return order;
}
