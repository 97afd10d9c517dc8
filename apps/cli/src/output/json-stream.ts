/**
 * `JSON.stringify(value, typedArraysAsArrays, indent)` written piece by piece: the same text as
 * `reportToJson`, but never one string, so a report with 10 M-point curves prints (V8 strings end at
 * 2^29 characters) and peak memory stays at the report itself plus one chunk.
 */

/** Elements of one array serialised per written chunk. */
const CHUNK = 1 << 16;

type Write = (chunk: string) => void;

function isTypedArray(v: unknown): v is ArrayLike<number> {
  return ArrayBuffer.isView(v) && !(v instanceof DataView);
}

/** A number, string, boolean or null as JSON (NaN and ±Infinity → null); undefined for values JSON skips. */
function scalar(v: unknown): string | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'null';
  if (typeof v === 'bigint') throw new TypeError('Do not know how to serialize a BigInt');
  if (v === undefined || typeof v === 'function' || typeof v === 'symbol') return undefined;
  return JSON.stringify(v);
}

/**
 * A typed array's numbers (the long PR curves), chunk by chunk. Where the items' indentation is a valid
 * `JSON.stringify` gap (1 to 10 characters), each chunk is copied into a plain array and serialised by the
 * engine with that gap: the items come out exactly as `JSON.stringify` writes them (the engine's own number
 * text, NaN and ±Infinity as null) and already indented, without a string per number (a quarter of the CPU
 * of the loop below on `eval voc2010/cls --format json`'s 200,000 curve points). Otherwise, `writeNumbersLoop`.
 */
function writeNumbers(items: ArrayLike<number>, depth: number, indent: string, write: Write): void {
  const gap = indent.repeat(depth + 1);
  if (gap.length === 0 || gap.length > 10 || items instanceof BigInt64Array || items instanceof BigUint64Array) return writeNumbersLoop(items, depth, indent, write);
  const n = items.length;
  const typed = items as Float64Array;
  // JSON.stringify(plain, null, gap) is "[\n" + gap + items joined by ",\n" + gap + "\n]"
  for (let start = 0; start < n; start += CHUNK) {
    const text = JSON.stringify(Array.from(typed.subarray(start, Math.min(n, start + CHUNK))), null, gap);
    write((start === 0 ? '[\n' : ',\n') + text.slice(2, -2));
  }
  write('\n' + indent.repeat(depth) + ']');
}

/**
 * `writeNumbers` one number at a time (any indentation): a run of equal values (a recall that stays put over
 * false positives) converted to text once, and each chunk's texts joined in one step into one flat string.
 */
function writeNumbersLoop(items: ArrayLike<number>, depth: number, indent: string, write: Write): void {
  const n = items.length;
  const inner = ',\n' + indent.repeat(depth + 1);
  const texts: string[] = new Array<string>(Math.min(n, CHUNK));
  let prev = NaN;
  let text = 'null';
  for (let start = 0; start < n; start += CHUNK) {
    const end = Math.min(n, start + CHUNK);
    texts.length = end - start;
    for (let i = start; i < end; i++) {
      const v = items[i];
      if (v !== prev) {
        text = v - v === 0 ? '' + v : 'null'; // NaN and ±Infinity → null
        prev = v;
      }
      texts[i - start] = text;
    }
    write((start === 0 ? '[' + inner.slice(1) : inner) + texts.join(inner));
  }
  write('\n' + indent.repeat(depth) + ']');
}

function writeArray(items: ArrayLike<unknown>, depth: number, indent: string, write: Write, seen: Set<object>): void {
  const n = items.length;
  if (n === 0) return write('[]');
  if (isTypedArray(items)) return writeNumbers(items, depth, indent, write);
  const inner = '\n' + indent.repeat(depth + 1);
  let buf = '[';
  for (let i = 0; i < n; i++) {
    const v = items[i];
    buf += (i === 0 ? '' : ',') + inner;
    if (typeof v === 'object' && v !== null && !(v instanceof Date)) {
      write(buf);
      buf = '';
      writeValue(v, depth + 1, indent, write, seen);
    } else {
      buf += scalar(v instanceof Date ? v.toJSON() : v) ?? 'null';
      if ((i & (CHUNK - 1)) === CHUNK - 1) {
        write(buf);
        buf = '';
      }
    }
  }
  write(buf + '\n' + indent.repeat(depth) + ']');
}

function writeValue(value: unknown, depth: number, indent: string, write: Write, seen: Set<object>): void {
  if (typeof value !== 'object' || value === null) return write(scalar(value) ?? 'null');
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return writeValue((value as { toJSON(): unknown }).toJSON(), depth, indent, write, seen);
  if (seen.has(value)) throw new TypeError('Converting circular structure to JSON');
  seen.add(value);
  if (isTypedArray(value) || Array.isArray(value)) writeArray(value as ArrayLike<unknown>, depth, indent, write, seen);
  else {
    const inner = '\n' + indent.repeat(depth + 1);
    let first = true;
    for (const key of Object.keys(value)) {
      const v = (value as Record<string, unknown>)[key];
      if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
      write((first ? '{' : ',') + inner + JSON.stringify(key) + ': ');
      first = false;
      writeValue(v, depth + 1, indent, write, seen);
    }
    write(first ? '{}' : '\n' + indent.repeat(depth) + '}');
  }
  seen.delete(value);
}

/** Writes `value` as `JSON.stringify` with typed arrays as arrays and `indent` spaces would, in pieces. */
export function writeJson(value: unknown, write: Write, indent = 2): void {
  writeValue(value, 0, ' '.repeat(indent), write, new Set());
}
