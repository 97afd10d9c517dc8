/**
 * The one number parser of cvdevkit, in the two flavours the specs name:
 * - `parseStrtod` / `parseNumberRange`: C `strtod` (MATLAB `textread('%f')`) on a whole token, for the
 *   text results, lists and predictions;
 * - `str2double`: MATLAB `str2double`, for XML values (surrounding white space ignored, `d` exponents).
 * All correctly rounded (they end in `Number`, or in one exact division).
 */

const SPECIAL = /^([+-]?)(?:(inf(?:inity)?)|nan)$/i;

/**
 * A number as C `strtod` (and MATLAB `textread('%f')`) reads a whole token: decimal with optional
 * sign, fraction and exponent (`1E2`, `-0`, `.5`, `5.`), `Inf`/`Infinity`/`NaN` in any case with an
 * optional sign. Correctly rounded. Anything else (including hex and empty text) gives `undefined`.
 */
export function parseStrtod(token: string): number | undefined {
  if (token.length === 0) return undefined;
  // Fast path: for a non-empty token without white space, Number() accepts exactly the decimal forms
  // strtod accepts plus "Infinity" (also fine) and the 0x / 0b / 0o prefixes (rejected here).
  const c0 = token.charCodeAt(0);
  const cl = token.charCodeAt(token.length - 1);
  const v = c0 > 32 && c0 < 127 && cl > 32 && cl < 127 ? Number(token) : NaN;
  if (!Number.isNaN(v)) {
    const c1 = token.charCodeAt(1) | 0x20;
    if (c1 === 0x78 || c1 === 0x62 || c1 === 0x6f) return undefined;
    return v;
  }
  const m = SPECIAL.exec(token);
  if (!m) return undefined;
  if (m[2] === undefined) return NaN;
  return m[1] === '-' ? -Infinity : Infinity;
}

/** An integer token as `textread('%d')` needs it (optional sign, digits only). */
export function parseIntegerToken(token: string): number | undefined {
  if (!/^[+-]?\d+$/.test(token)) return undefined;
  const v = Number(token);
  return Number.isSafeInteger(v) ? v : undefined;
}

/** `parseIntegerToken(text.slice(a, b))` without the slice. */
export function parseIntegerRange(text: string, a: number, b: number): number | undefined {
  let p = a;
  let c = text.charCodeAt(p);
  const neg = c === 45;
  if (c === 43 || c === 45) p++;
  if (p >= b) return undefined;
  let v = 0;
  for (; p < b; p++) {
    c = text.charCodeAt(p);
    if (c < 48 || c > 57) return undefined;
    v = v * 10 + (c - 48);
  }
  if (v > Number.MAX_SAFE_INTEGER) return parseIntegerToken(text.slice(a, b));
  return neg ? -v : v;
}

const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];

/**
 * `parseStrtod(text.slice(a, b))` without the slice for plain decimals: digits forming an integer below
 * 2^53 with at most 22 fraction digits take the exact path `m / 10^f` (both operands are exact doubles
 * and one division is correctly rounded, so this equals `Number(token)`); anything else goes through
 * `Number` / `parseStrtod`. The hot path of multi-million-line prediction files.
 */
export function parseNumberRange(text: string, a: number, b: number): number | undefined {
  let p = a;
  let c = text.charCodeAt(p);
  let neg = false;
  if (c === 43 || c === 45) {
    neg = c === 45;
    c = text.charCodeAt(++p);
  }
  let digits = 0;
  let m = 0;
  let frac = 0;
  while (p < b && c >= 48 && c <= 57) {
    digits++;
    m = m * 10 + (c - 48);
    c = text.charCodeAt(++p);
  }
  if (p < b && c === 46) {
    c = text.charCodeAt(++p);
    while (p < b && c >= 48 && c <= 57) {
      digits++;
      frac++;
      m = m * 10 + (c - 48);
      c = text.charCodeAt(++p);
    }
  }
  if (digits > 0 && p === b) {
    if (m <= Number.MAX_SAFE_INTEGER && frac <= 22) {
      const v = frac === 0 ? m : m / POW10[frac];
      return neg ? -v : v;
    }
    return Number(text.slice(a, b));
  }
  if (digits > 0 && p < b && (c === 101 || c === 69)) {
    c = text.charCodeAt(++p);
    if (c === 43 || c === 45) c = text.charCodeAt(++p);
    let e = 0;
    while (p < b && c >= 48 && c <= 57) {
      e++;
      c = text.charCodeAt(++p);
    }
    if (e === 0 || p !== b) return undefined;
    return Number(text.slice(a, b));
  }
  return parseStrtod(text.slice(a, b));
}

/**
 * `parseNumberRange` over the bytes of a UTF-8 file: `parseStrtod` of the token `bytes[a, b)` decodes to,
 * without a string for plain decimals (the results readers scan files as bytes). A token that is not a
 * plain decimal is decoded and handed to `parseStrtod`.
 */
export function parseNumberBytes(bytes: Buffer, a: number, b: number): number | undefined {
  let p = a;
  let c = bytes[p];
  let neg = false;
  if (c === 43 || c === 45) {
    neg = c === 45;
    c = bytes[++p];
  }
  let digits = 0;
  let m = 0;
  let frac = 0;
  while (p < b && c >= 48 && c <= 57) {
    digits++;
    m = m * 10 + (c - 48);
    c = bytes[++p];
  }
  if (p < b && c === 46) {
    c = bytes[++p];
    while (p < b && c >= 48 && c <= 57) {
      digits++;
      frac++;
      m = m * 10 + (c - 48);
      c = bytes[++p];
    }
  }
  if (digits > 0 && p === b && m <= Number.MAX_SAFE_INTEGER && frac <= 22) {
    const v = frac === 0 ? m : m / POW10[frac];
    return neg ? -v : v;
  }
  return parseStrtod(bytes.toString('utf8', a, b));
}

/** `parseIntegerRange` over bytes: `parseIntegerToken` of the token `bytes[a, b)` decodes to. */
export function parseIntegerBytes(bytes: Buffer, a: number, b: number): number | undefined {
  let p = a;
  let c = bytes[p];
  const neg = c === 45;
  if (c === 43 || c === 45) p++;
  if (p >= b) return undefined;
  let v = 0;
  for (; p < b; p++) {
    c = bytes[p];
    if (c < 48 || c > 57) return undefined;
    v = v * 10 + (c - 48);
  }
  if (v > Number.MAX_SAFE_INTEGER) return parseIntegerToken(bytes.toString('utf8', a, b));
  return neg ? -v : v;
}

const STR2DOUBLE_NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eEdD][+-]?\d+)?$/;
const STR2DOUBLE_SPECIAL = /^([+-]?)(inf|infinity|nan)$/i;

/**
 * MATLAB `str2double` on one string: surrounding white space is ignored; decimal numbers with an
 * optional sign, fraction and exponent (`e`, `E`, `d`, `D`), `Inf`, `-Inf`, `NaN` (any case) are
 * accepted and rounded correctly; anything else (and undefined) is NaN.
 */
export function str2double(s: string | undefined): number {
  if (s === undefined) return NaN;
  // fast path: a plain run of at most 15 digits (pixel coordinates) is that integer, exactly
  const len = s.length;
  if (len > 0 && len <= 15) {
    let v = 0;
    let k = 0;
    for (; k < len; k++) {
      const c = s.charCodeAt(k);
      if (c < 48 || c > 57) break;
      v = v * 10 + (c - 48);
    }
    if (k === len) return v;
  }
  const t = s.trim();
  if (STR2DOUBLE_NUMBER.test(t)) return Number(t.replace(/[dD]/, 'e'));
  const m = STR2DOUBLE_SPECIAL.exec(t);
  if (m) {
    if (m[2].toLowerCase() === 'nan') return NaN;
    return m[1] === '-' ? -Infinity : Infinity;
  }
  return NaN;
}

/** Whether `str2double` reads `s` as a number (NaN included when written `NaN`). */
export function isStr2doubleNumber(s: string): boolean {
  const t = s.trim();
  return STR2DOUBLE_NUMBER.test(t) || STR2DOUBLE_SPECIAL.test(t);
}
