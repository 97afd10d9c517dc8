// rankDescending (radix on the IEEE-754 bits) against the comparison sort it replaced (the baseline,
// run in the same process, alternating), on 5 k, 100 k and 1 M scores with ties; CPU time, min and median
// of 7. Both must give the same permutation. Run after a build: pnpm --filter @cvdevkit/metrics bench
import { rankDescending } from '../dist/ranking.js';

const comparison = (scores) => {
  const order = Array.from(scores, (_, i) => i);
  order.sort((a, b) => (scores[a] > scores[b] ? -1 : scores[a] < scores[b] ? 1 : a - b));
  return order;
};
const cpu = (fn) => {
  const c = process.cpuUsage();
  const r = fn();
  const d = process.cpuUsage(c);
  return [(d.user + d.system) / 1000, r];
};
for (const n of [5_000, 100_000, 1_000_000]) {
  const scores = new Float64Array(n);
  for (let i = 0; i < n; i++) scores[i] = Math.round(Math.random() * 1e4) / 1e4; // 4 decimals: many ties, as in results files
  const radix = [];
  const base = [];
  for (let k = 0; k < 7; k++) {
    const [tr, a] = cpu(() => rankDescending(scores));
    const [tb, b] = cpu(() => comparison(scores));
    if (a.some((v, i) => v !== b[i])) throw new Error('permutations differ');
    radix.push(tr);
    base.push(tb);
  }
  const stat = (xs) => { xs.sort((x, y) => x - y); return `min ${xs[0].toFixed(1)} ms, median ${xs[3].toFixed(1)} ms`; };
  console.log(`${String(n).padStart(9)} scores: radix ${stat(radix)} | comparison sort (baseline) ${stat(base)}`);
}
