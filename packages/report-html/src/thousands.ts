/**
 * An integer with its thousands grouped by commas, as `n.toLocaleString('en-US')` writes it (`12,345`),
 * without ICU: the first `toLocaleString` of a process loads ICU's number formatting data (50–70 ms on the
 * page's main thread, measured). Other numbers (fractions, NaN, ±Infinity) are written as `String(n)`.
 */
export function thousands(n: number): string {
  if (!Number.isSafeInteger(n)) return String(n);
  const digits = String(Math.abs(n));
  let out = '';
  for (let end = digits.length; end > 0; end -= 3) out = digits.slice(Math.max(0, end - 3), end) + (out ? `,${out}` : '');
  return n < 0 ? `-${out}` : out;
}
