/**
 * Text inputs of the VOC tasks, read through `@cvdevkit/formats` (the one line reader, number parser,
 * input layer and visible quoting); this module only adapts them to a problem collector.
 */
import type { ProblemCollector } from '@cvdevkit/core';
import { readInputText, visibleQuote } from '@cvdevkit/formats';

export { forEachLine, parseStrtod, parseIntegerToken } from '@cvdevkit/formats';

/**
 * Reads a UTF-8 text file (a regular file within the `text` cap). A missing or unreadable file is an
 * input problem naming it; with a collector the problem is added and `undefined` returned, without one
 * it is thrown.
 */
export async function readTextInput(path: string, expected: string, problems?: ProblemCollector): Promise<string | undefined> {
  try {
    return await readInputText(path, { expected });
  } catch (e) {
    if (!problems) throw e;
    problems.addError(e);
    return undefined;
  }
}

/** Shortens a token for an error message, invisible characters (a BOM, controls) made visible. */
export function quote(token: string): string {
  return visibleQuote(token);
}
