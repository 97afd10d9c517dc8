/**
 * JSON numbers from bytes, correctly rounded to float64. Up to 15 significant digits with a decimal
 * exponent in ±22 the value is one exact multiplication or division (Clinger's fast path: both operands
 * are exact doubles, so the one rounding is the correct one); anything else goes through `Number()` of
 * the text (V8's strtod is correctly rounded). `-0` stays -0.
 */
const POW10 = Float64Array.from({ length: 23 }, (_, i) => Number(`1e${i}`));

export interface ParsedNumber {
  value: number;
  /** Index just past the number. */
  end: number;
  /** The token had no fraction or exponent (a Python int). */
  integer: boolean;
}

/** Result of `scanNumber`: -1 end = the number may continue past `end` (need more input), -2 = not a number. */
export const NEED_MORE_INPUT = -1;
export const NOT_A_NUMBER = -2;

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * Parses the JSON number starting at `p` (a '-' or a digit). `eof` says whether `end` is the end of the
 * input (else a number touching `end` may continue: `end` = NEED_MORE_INPUT in the result).
 */
export function parseNumber(b: Uint8Array, p: number, end: number, eof: boolean, out: ParsedNumber): void {
  const start = p;
  let neg = false;
  if (b[p] === 45) {
    neg = true;
    p++;
  }
  if (p >= end) return more(out, eof);
  let m = 0;
  let nd = 0;
  let slow = false;
  let e10 = 0;
  let integer = true;
  const c0 = b[p];
  if (c0 === 48) p++;
  else if (c0 >= 49 && c0 <= 57) {
    while (p < end && isDigit(b[p])) {
      if (nd < 15) {
        m = m * 10 + (b[p] - 48);
        nd++;
      } else {
        slow = true;
      }
      p++;
    }
  } else return notNumber(out);
  if (p < end && b[p] === 46) {
    integer = false;
    p++;
    if (p >= end) return more(out, eof);
    if (!isDigit(b[p])) return notNumber(out);
    while (p < end && isDigit(b[p])) {
      const d = b[p] - 48;
      if (m === 0 && d === 0) e10--;
      else if (nd < 15) {
        m = m * 10 + d;
        nd++;
        e10--;
      } else slow = true;
      p++;
    }
  }
  if (p < end && (b[p] === 101 || b[p] === 69)) {
    integer = false;
    p++;
    if (p >= end) return more(out, eof);
    let eneg = false;
    if (b[p] === 43 || b[p] === 45) {
      eneg = b[p] === 45;
      p++;
      if (p >= end) return more(out, eof);
    }
    if (!isDigit(b[p])) return notNumber(out);
    let ex = 0;
    while (p < end && isDigit(b[p])) {
      if (ex < 100000) ex = ex * 10 + (b[p] - 48);
      p++;
    }
    e10 += eneg ? -ex : ex;
  }
  if (p >= end && !eof) return more(out, eof);
  out.end = p;
  out.integer = integer;
  if (!slow && e10 >= -22 && e10 <= 22) {
    const v = e10 >= 0 ? m * POW10[e10] : m / POW10[-e10];
    out.value = neg ? -v : v;
    return;
  }
  let text = '';
  for (let i = start; i < p; i++) text += String.fromCharCode(b[i]);
  out.value = Number(text);
}

function more(out: ParsedNumber, eof: boolean): void {
  out.end = eof ? NOT_A_NUMBER : NEED_MORE_INPUT;
}

function notNumber(out: ParsedNumber): void {
  out.end = NOT_A_NUMBER;
}
