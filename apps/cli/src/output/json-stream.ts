/**
 * `JSON.stringify(value, typedArraysAsArrays, indent)` written piece by piece: the same text as
 * `reportToJson`, but never one string, so a report with 10 M-point curves prints (V8 strings end at
 * 2^29 characters) and peak memory stays at the report itself plus one chunk.
 */

/**
 * Elements of one array serialised per written chunk: small enough that each chunk's strings (~30 KB for
 * 1,024 curve points) stay in the young generation and die there; chunks of 65,536 points made strings of
 * megabytes in the large-object space, fresh memory each time (eval voc2010/cls --format json: the output
 * took twice the CPU and 5 MiB more).
 */
const CHUNK = 1024;

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
 * A typed array's numbers (the long PR curves), chunk by chunk: each chunk copied into a plain array and
 * serialised by the engine (`JSON.stringify`: its own number text, NaN and ±Infinity as null, no string
 * per number; a BigInt throws, as in `scalar`). Where the elements' indentation is a valid JSON.stringify
 * gap (at most 10 spaces: curves of a report), the engine indents them itself (`JSON.stringify(chunk, null,
 * gap)`, its brackets cut off); deeper, its commas are replaced by the indented separator. With chunks of
 * 1,024 points the gap path costs a third less CPU than the replace (`eval voc2010/cls --format json`'s
 * 200,000 curve points; with 65,536-point chunks it was the other way round).
 */
function writeNumbers(items: ArrayLike<number>, depth: number, indent: string, write: Write): void {
  const n = items.length;
  const gap = indent.repeat(depth + 1);
  const inner = ',\n' + gap;
  const useGap = gap.length <= 10;
  for (let start = 0; start < n; start += CHUNK) {
    const end = Math.min(n, start + CHUNK);
    const plain = new Array<number>(end - start);
    for (let i = start; i < end; i++) plain[i - start] = items[i];
    if (useGap) {
      // "[\n<gap>a,\n<gap>b\n]": the elements with their separators are text.slice(1, -2)
      const text = JSON.stringify(plain, null, gap);
      write((start === 0 ? '[' : ',') + text.slice(1, -2));
    } else {
      const text = JSON.stringify(plain); // "[a,b,…]"
      write((start === 0 ? '[' + inner.slice(1) : inner) + text.slice(1, -1).replaceAll(',', inner));
    }
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
