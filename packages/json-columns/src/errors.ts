/**
 * The one error type of @cvdevkit/json-columns. It knows the byte offset and the record path
 * (`annotations[12].bbox`) but not what the data means: a caller rethrows it with its own words.
 */
export type JsonColumnsErrorReason =
  /** Not JSON (as Python's `json` reads it: NaN, Infinity and -Infinity are accepted). */
  | 'syntax'
  /** A declared field holds a value of another type (a string where a number is declared, …). */
  | 'type'
  /** An integer too large to be held exactly (beyond ±(2^53 − 1)) in a field declared as an id. */
  | 'inexact-integer'
  /** The root is not what the layout declares (an object with lists, or a list of records). */
  | 'root'
  /** The file cannot be read. */
  | 'read';

export class JsonColumnsError extends Error {
  override readonly name = 'JsonColumnsError';
  constructor(
    readonly reason: JsonColumnsErrorReason,
    message: string,
    /** Byte offset in the input where the problem is. */
    readonly offset: number,
    /** What was required (human text). */
    readonly expected: string,
    /** What was found (the value or character, shortened). */
    readonly found: string,
    /** The record path (`annotations[12].bbox`, `[3].score`), when inside a record. */
    readonly path?: string,
  ) {
    super(message);
  }
}

export function isJsonColumnsError(e: unknown): e is JsonColumnsError {
  return e instanceof JsonColumnsError || (typeof e === 'object' && e !== null && (e as { name?: unknown }).name === 'JsonColumnsError');
}
