/**
 * Text inputs of the VOC tasks, read through `@cvdevkit/formats` (the one line reader, number parser,
 * input layer and visible quoting); this module only adapts them to a problem collector.
 */
import { DevkitError, isDevkitError, type ProblemCollector } from '@cvdevkit/core';
import { readInputBytesSync, readInputText, visibleQuote, type ScratchBuffer } from '@cvdevkit/formats/text';

export { forEachLine, forEachLineSpans, spanEquals, parseStrtod, parseIntegerToken, parseIntegerRange, parseNumberRange } from '@cvdevkit/formats/text';

/**
 * Reads a UTF-8 text file (a regular file within the `text` cap). A missing or unreadable file is an
 * input problem naming it; with a collector the problem is added and `undefined` returned, without one
 * it is thrown.
 */
export async function readTextInput(path: string, expected: string, problems?: ProblemCollector, hintIfMissing?: () => string | undefined): Promise<string | undefined> {
  try {
    return await readInputText(path, { expected });
  } catch (e) {
    const err = hintIfMissing ? withMissingHint(e, hintIfMissing) : e;
    if (!problems) throw err;
    problems.addError(err);
    return undefined;
  }
}

/**
 * `readTextInput`'s file as bytes, read synchronously (small inputs read one after another: no thread-pool
 * round trips); same problems. With `scratch`, into its buffer (valid until the next read into it).
 */
export function readBytesInput(path: string, expected: string, problems?: ProblemCollector, hintIfMissing?: () => string | undefined, scratch?: ScratchBuffer): Buffer | undefined {
  try {
    return readInputBytesSync(path, { kind: 'text', expected }, scratch);
  } catch (e) {
    const err = hintIfMissing ? withMissingHint(e, hintIfMissing) : e;
    if (!problems) throw err;
    problems.addError(err);
    return undefined;
  }
}

/** A missing-file error with the hint `hint` gives (what is there instead), other errors as they are. */
function withMissingHint(e: unknown, hint: () => string | undefined): unknown {
  if (!isDevkitError(e) || e.code !== 'input/missing-file' || e.problems.length !== 1) return e;
  const text = hint();
  if (text === undefined) return e;
  const p = e.problems[0];
  return new DevkitError({ ...p, kind: e.kind, hint: p.hint ? `${p.hint}; ${text}` : text, cause: e.cause });
}

/** `hint` on the first call only (twenty missing class files get the list of what is there once). */
export function firstTimeOnly(hint: () => string | undefined): () => string | undefined {
  let given = false;
  return () => {
    if (given) return undefined;
    given = true;
    return hint();
  };
}

/** Shortens a token for an error message, invisible characters (a BOM, controls) made visible. */
export function quote(token: string): string {
  return visibleQuote(token);
}
