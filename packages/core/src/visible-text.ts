/**
 * Offending values in messages: quoted, shortened, and with every invisible character made visible
 * (`\t`, `\u0000`, a UTF-8 byte order mark as `\uFEFF`), so that `found "<BOM>2010_000049"` cannot look
 * like a correct name.
 */

// C0/C1 controls, DEL, soft hyphen, zero-width and direction marks, line/paragraph separators, BOM,
// lone surrogates (a broken UTF-16 pair) and the replacement character of a broken UTF-8 sequence.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u206a-\u206f\ufeff\ufff9-\ufffd]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/gu;

const NAMED: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r', '"': '\\"', '\\': '\\\\' };

function escapeChar(c: string): string {
  return NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Whether `text` holds a character a reader would not see. */
export function hasInvisible(text: string): boolean {
  INVISIBLE.lastIndex = 0;
  return INVISIBLE.test(text);
}

/**
 * `text` in double quotes, at most `max` characters (then `…`), with quotes, backslashes and invisible
 * characters escaped; a leading byte order mark is also named: `"\uFEFF2010_000049" (starts with a
 * UTF-8 byte order mark)`.
 */
export function visibleQuote(text: string, max = 40): string {
  const short = text.length > max ? `${text.slice(0, max - 3)}…` : text;
  const body = short.replace(/["\\]/g, escapeChar).replace(INVISIBLE, escapeChar);
  const bom = text.charCodeAt(0) === 0xfeff ? ' (starts with a UTF-8 byte order mark)' : '';
  return `"${body}"${bom}`;
}

/**
 * A short, visible description of any value for a message's `found` (`[1, "a", …] (120 items)`, `"out"`,
 * `nothing` for undefined, `a function`): the one used by formats' parsers and the registry's contract checks.
 */
export function describeValue(value: unknown, max = 60): string {
  if (typeof value === 'string') return visibleQuote(value, max);
  if (value === undefined) return 'nothing';
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  if (Array.isArray(value)) {
    const shown: string[] = [];
    let len = 2;
    for (const v of value) {
      const s = typeof v === 'object' && v !== null ? (Array.isArray(v) ? '[…]' : '{…}') : describeValue(v, 20);
      if (len + s.length > max) {
        shown.push('…');
        break;
      }
      shown.push(s);
      len += s.length + 2;
    }
    return `[${shown.join(', ')}] (${value.length} item${value.length === 1 ? '' : 's'})`;
  }
  if (typeof value === 'object') {
    const keys = Object.keys(value);
    return `an object {${keys.slice(0, 5).join(', ')}${keys.length > 5 ? ', …' : ''}}`;
  }
  return typeof value === 'function' ? 'a function' : typeof value;
}
