/** Number formatting for results files. */

/**
 * A number as text that reads back to the same double (shortest round-trip form; `Inf`, `-Inf`, `NaN`
 * and `-0` as the official readers accept them).
 */
export function formatExact(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Inf';
  if (x === -Infinity) return '-Inf';
  if (Object.is(x, -0)) return '-0';
  return String(x);
}

/** C `printf('%.<p>g', x)` for finite x. */
export function formatG(x: number, p: number): string {
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const precision = Math.max(1, p);
  const [mant, expText] = x.toExponential(precision - 1).split('e');
  const e = Number(expText);
  if (e < -4 || e >= precision) {
    let m = mant;
    if (m.includes('.')) m = m.replace(/0+$/, '').replace(/\.$/, '');
    const sign = e < 0 ? '-' : '+';
    return `${m}e${sign}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  let f = x.toFixed(Math.max(0, precision - 1 - e));
  if (f.includes('.')) f = f.replace(/0+$/, '').replace(/\.$/, '');
  return f;
}

/**
 * MATLAB `num2str` of a real scalar, as `VOCwritexml` writes numbers: integers in full, others with
 * `max(floor(log10(abs(x))) + 5, 5)` significant digits (`%g`), so `num2str(pi)` is `3.1416`.
 */
export function num2str(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Inf';
  if (x === -Infinity) return '-Inf';
  if (Number.isInteger(x)) return Math.abs(x) < 1e15 ? (Object.is(x, -0) ? '0' : x.toFixed(0)) : formatG(x, 15);
  const digits = Math.floor(Math.log10(Math.abs(x)));
  return formatG(x, Math.max(digits + 5, 5));
}
