/**
 * Ranks of the values of one block, 1 = best. `higherIsBetter` (AP, F, IoU) ranks the largest first;
 * otherwise (errors) the smallest. Equal values share the average of the ranks they span.
 * NaN is not allowed here: blocks with a NaN are excluded before ranking.
 */
export function averageRanks(values: ArrayLike<number>, higherIsBetter = true): Float64Array {
  const n = values.length;
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((a, b) => (higherIsBetter ? values[b] - values[a] : values[a] - values[b]) || a - b);
  const ranks = new Float64Array(n);
  let i = 0;
  while (i < n) {
    let j = i + 1;
    while (j < n && values[order[j]] === values[order[i]]) j++;
    // positions i..j-1 (0-based) hold ranks i+1..j: their average
    const r = (i + 1 + j) / 2;
    for (let t = i; t < j; t++) ranks[order[t]] = r;
    i = j;
  }
  return ranks;
}

/** Per-block ranks of a blocks × methods table, and each method's mean rank. */
export function rankTable(table: readonly ArrayLike<number>[], higherIsBetter = true): { ranks: Float64Array[]; meanRanks: Float64Array } {
  const k = table.length === 0 ? 0 : table[0].length;
  const ranks = table.map((row) => averageRanks(row, higherIsBetter));
  const meanRanks = new Float64Array(k);
  for (const r of ranks) for (let j = 0; j < k; j++) meanRanks[j] += r[j];
  for (let j = 0; j < k; j++) meanRanks[j] /= ranks.length;
  return { ranks, meanRanks };
}
