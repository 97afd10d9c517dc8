/**
 * The one error type of @cvdevkit/rle. It carries no file or entry index (this package does not know
 * where an RLE came from): a caller catches it and rethrows its own error with that location, for example
 * `inputError({ file, field: \`annotations[${i}].segmentation\`, expected: e.expected, found: e.found })`.
 */
export type RleErrorReason =
  /** `h`, `w` are not non-negative integers with h·w < 2^32, or a mask's length is not h·w. */
  | 'size'
  /** An uncompressed count is not an integer in 0 … 2^32−1. */
  | 'counts-value'
  /** The counts do not add up to h·w (or two RLEs walked together cover different totals). */
  | 'counts-sum'
  /** A compressed string holds a character outside '0' … 'o' (48 … 111). */
  | 'string-char'
  /** A compressed string ends inside a count (its last character has the continuation bit 0x20). */
  | 'string-truncated'
  /** A compressed count has more than 7 characters (pycocotools' C shifts are undefined there). */
  | 'string-group'
  /** A polygon list is empty (pycocotools raises IndexError). */
  | 'polygon-list-empty'
  /** The first polygon of a list has 4 numbers or fewer (pycocotools takes 4 as a box and raises). */
  | 'polygon-too-short'
  /** A polygon or box coordinate is not finite or beyond ±2^30/5 (C int overflow in pycocotools). */
  | 'polygon-coordinate'
  /** A box is not 4 numbers. */
  | 'box'
  /** `iou`'s crowd flags are not one per ground truth. */
  | 'crowd-length';

export class RleError extends Error {
  override readonly name = 'RleError';
  /** What is wrong, as a stable code. */
  readonly reason: RleErrorReason;
  /** What was required (human text). */
  readonly expected?: string;
  /** What was found (the value itself, shortened). */
  readonly found?: string;
  /** Where in the value: a character offset (strings), a polygon index (lists), a count index. */
  readonly position?: number;
  /** What is wrong, in words, without the expected/found parts that `message` adds. */
  readonly detail: string;

  constructor(reason: RleErrorReason, detail: string, init: { expected?: string; found?: string; position?: number } = {}) {
    const parts = [detail];
    if (init.expected !== undefined) parts.push(`expected ${init.expected}`);
    if (init.found !== undefined) parts.push(`found ${init.found}`);
    super(parts.join(', '));
    this.reason = reason;
    this.detail = detail;
    this.expected = init.expected;
    this.found = init.found;
    this.position = init.position;
  }
}

export function isRleError(e: unknown): e is RleError {
  return e instanceof RleError || (typeof e === 'object' && e !== null && (e as { name?: unknown }).name === 'RleError' && 'reason' in e);
}

/** Short text of a value for `found`. */
export function show(v: unknown): string {
  let s: string;
  if (typeof v === 'string') s = JSON.stringify(v);
  else if (ArrayBuffer.isView(v) || Array.isArray(v)) s = `[${Array.from(v as ArrayLike<unknown>, (x) => String(x)).join(', ')}]`;
  else s = String(v);
  return s.length > 80 ? s.slice(0, 77) + '…' : s;
}
