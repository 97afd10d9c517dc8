import { isUtf8 } from 'node:buffer';
import type { ProblemCollector } from '@cvdevkit/core';
import { ByteKeyIndex, decodeText, readKeyLabelBytes } from '@cvdevkit/formats/text';
import { forEachLine, forEachLineSpans, parseIntegerRange, parseIntegerToken, quote, readTextInput, spanEquals } from './text.js';
import { imageSetHint } from './path-hints.js';

/**
 * Image-set lists of the VOCdevkit (`ImageSets/<Main|Segmentation|Layout|Action>/…`).
 *
 * The official code accepts only ids like `YYYY_NNNNNN` (VOChash); here any id without white space
 * works, and the lookup is an exact-match dictionary, which gives the same numbers for valid ids.
 * An id listed twice is an error (the official code errors as soon as a result names it).
 */

/** A list of keys with the 1-based line each came from, and an exact-match index. */
export interface KeyList {
  file: string;
  keys: string[];
  lines: number[];
  /** key → position in `keys`. */
  index: Map<string, number>;
}

/**
 * Builds the index of a key list, reporting every duplicate key (with both lines). `same`, a list read
 * before (the 20 class lists of a set usually hold the same ids in the same order), lends its index when
 * it has no duplicates and exactly these keys in this order: one comparison per key instead of a map insert.
 */
export function indexKeys(file: string, keys: string[], lines: number[], problems: ProblemCollector, what = 'image', same?: KeyList): Map<string, number> {
  if (same !== undefined && same.index.size === keys.length && sameKeys(same.keys, keys)) return same.index;
  const index = new Map<string, number>();
  for (let i = 0; i < keys.length; i++) {
    const prev = index.get(keys[i]);
    if (prev !== undefined) {
      problems.add({
        code: 'input/duplicate-id',
        file,
        line: lines[i],
        expected: `each ${what} listed once`,
        found: `${quote(keys[i])} again (first on line ${lines[prev]})`,
        hint: 'the official devkit fails with "multiple image" for a listed-twice id',
      });
    } else index.set(keys[i], i);
  }
  return index;
}

function sameKeys(a: string[], b: string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function fieldCountProblem(problems: ProblemCollector, file: string, line: number, expected: string, found: number): void {
  problems.add({ code: 'input/field-count', file, line, expected, found: `${found} field${found === 1 ? '' : 's'}` });
}

/** A one-column image list: `ImageSets/Main/<set>.txt`, `ImageSets/Segmentation/<set>.txt`, `ImageSets/Action/<set>.txt`. */
export function parseImageList(text: string, file: string, problems: ProblemCollector): KeyList {
  const keys: string[] = [];
  const lines: number[] = [];
  forEachLine(text, (f, line) => {
    if (f.length !== 1) return fieldCountProblem(problems, file, line, '1 field "<image id>"', f.length);
    keys.push(f[0]);
    lines.push(line);
  });
  return { file, keys, lines, index: indexKeys(file, keys, lines, problems) };
}

/** A labelled list `<id> <label>` (`ImageSets/Main/<cls>_<set>.txt`), labels 1 / -1 / 0 (any integer). */
export interface LabelledList extends KeyList {
  labels: Int32Array;
  /** The keys as byte spans of the file, when it was read as bytes (`parseLabelledListBytes`). */
  byteKeys?: ByteKeyIndex;
}

/** The string index of byte keys, built once per key set (twenty class lists share one). */
const stringIndexes = new WeakMap<ByteKeyIndex, Map<string, number>>();
/** The byte index of string keys (lists from the cache or read as text), built once per key array. */
const byteIndexes = new WeakMap<readonly string[], ByteKeyIndex>();

/**
 * A list read as bytes: keys, lines and the string index are made only when asked for (the per-image
 * statistics, the list cache, the action task); the cls run itself looks keys up in `byteKeys`.
 */
class BytesLabelledList implements LabelledList {
  private lineList: number[] | undefined;

  constructor(
    readonly file: string,
    readonly byteKeys: ByteKeyIndex,
    readonly labels: Int32Array,
    private readonly lineOf: Uint32Array,
  ) {}

  get keys(): string[] {
    return this.byteKeys.keys();
  }

  get lines(): number[] {
    return (this.lineList ??= Array.from(this.lineOf));
  }

  get index(): Map<string, number> {
    let index = stringIndexes.get(this.byteKeys);
    if (!index) {
      const keys = this.keys;
      index = new Map();
      for (let i = 0; i < keys.length; i++) if (!index.has(keys[i])) index.set(keys[i], i);
      stringIndexes.set(this.byteKeys, index);
    }
    return index;
  }
}

/** The keys of `list` as a byte index (its own when it was read as bytes): positions as `list.index`'s. */
export function byteKeysOf(list: LabelledList): ByteKeyIndex {
  if (list.byteKeys) return list.byteKeys;
  let index = byteIndexes.get(list.keys);
  if (!index) byteIndexes.set(list.keys, (index = ByteKeyIndex.fromStrings(list.keys)));
  return index;
}

/**
 * `parseLabelledList` of the file's bytes: the same list, problems and messages, without a string per
 * line (`readKeyLabelBytes`). `same`: a list read before whose keys this one shares when it lists exactly
 * them. A file that is not valid UTF-8 is decoded and read as text. `scratch`: `bytes` will be overwritten
 * (see `ScratchBuffer`), so keys of its own are kept in a copy.
 */
export function parseLabelledListBytes(bytes: Buffer, file: string, problems: ProblemCollector, same?: LabelledList, scratch = false): LabelledList {
  if (!isUtf8(bytes)) return parseLabelledList(decodeText(bytes, file, 'an image-set list'), file, problems, same);
  const read = readKeyLabelBytes(bytes, same && byteKeysOf(same), scratch);
  for (const b of read.bad) {
    if (b.number === undefined) fieldCountProblem(problems, file, b.line, '2 fields "<image id> <label>"', b.fields);
    else problems.add({ code: 'input/number', file, line: b.line, field: 'label', expected: 'an integer label (1, -1 or 0)', found: quote(b.number) });
  }
  for (const d of read.duplicates) {
    problems.add({
      code: 'input/duplicate-id',
      file,
      line: read.line[d.record],
      expected: 'each image listed once',
      found: `${quote(read.keys.key(d.record))} again (first on line ${read.line[d.first]})`,
      hint: 'the official devkit fails with "multiple image" for a listed-twice id',
    });
  }
  return new BytesLabelledList(file, read.keys, read.label, read.line);
}

/**
 * `same`: a list read before whose keys and index this one may share (see `indexKeys`). While the ids
 * match `same`'s, line for line, they are compared in place and not copied (one string per id for all
 * twenty class lists of a set).
 */
export function parseLabelledList(text: string, file: string, problems: ProblemCollector, same?: KeyList): LabelledList {
  const shared = same?.keys;
  let keys: string[] | undefined = shared ? undefined : [];
  const lines: number[] = [];
  const labels: number[] = [];
  forEachLineSpans(text, 2, (f, line) => {
    if (f.count !== 2) return fieldCountProblem(problems, file, line, '2 fields "<image id> <label>"', f.count);
    const label = parseIntegerRange(text, f.starts[1], f.ends[1]);
    if (label === undefined) {
      problems.add({ code: 'input/number', file, line, field: 'label', expected: 'an integer label (1, -1 or 0)', found: quote(text.slice(f.starts[1], f.ends[1])) });
      return;
    }
    const n = lines.length;
    if (keys === undefined) {
      if (n < shared!.length && spanEquals(text, f.starts[0], f.ends[0], shared![n])) {
        lines.push(line);
        labels.push(label);
        return;
      }
      keys = shared!.slice(0, n);
    }
    keys.push(text.slice(f.starts[0], f.ends[0]));
    lines.push(line);
    labels.push(label);
  });
  const own = keys ?? (lines.length === shared!.length ? shared! : shared!.slice(0, lines.length));
  return { file, keys: own, lines, labels: Int32Array.from(labels), index: indexKeys(file, own, lines, problems, 'image', same) };
}

/** The key of a person in the action lists: `"<image id>/<object index>"` (VOCevalaction line 9). */
export function actionKey(image: string, object: number): string {
  return `${image}/${object}`;
}

/** `ImageSets/Action/<action>_<set>.txt`: `<id> <object> <label>`; keys are `id/object`. */
export function parseActionList(text: string, file: string, problems: ProblemCollector, same?: KeyList): LabelledList {
  const keys: string[] = [];
  const lines: number[] = [];
  const labels: number[] = [];
  forEachLine(text, (f, line) => {
    if (f.length !== 3) return fieldCountProblem(problems, file, line, '3 fields "<image id> <object index> <label>"', f.length);
    const obj = parseIntegerToken(f[1]);
    const label = parseIntegerToken(f[2]);
    if (obj === undefined) {
      problems.add({ code: 'input/number', file, line, field: 'object', expected: 'an integer object index', found: quote(f[1]) });
      return;
    }
    if (label === undefined) {
      problems.add({ code: 'input/number', file, line, field: 'label', expected: 'an integer label (1, -1 or 0)', found: quote(f[2]) });
      return;
    }
    keys.push(actionKey(f[0], obj));
    lines.push(line);
    labels.push(label);
  });
  return { file, keys, lines, labels: Int32Array.from(labels), index: indexKeys(file, keys, lines, problems, 'person', same) };
}

/** `ImageSets/Layout/<set>.txt`: `<id> <object>` (1-based index over all objects of the annotation). */
export interface LayoutList {
  file: string;
  images: string[];
  objects: number[];
  lines: number[];
  /** `id/object` → position. */
  index: Map<string, number>;
}

export function parseLayoutList(text: string, file: string, problems: ProblemCollector): LayoutList {
  const images: string[] = [];
  const objects: number[] = [];
  const lines: number[] = [];
  forEachLine(text, (f, line) => {
    if (f.length !== 2) return fieldCountProblem(problems, file, line, '2 fields "<image id> <object index>"', f.length);
    const obj = parseIntegerToken(f[1]);
    if (obj === undefined || obj < 1) {
      problems.add({ code: 'input/number', file, line, field: 'object', expected: 'an object index >= 1', found: quote(f[1]) });
      return;
    }
    images.push(f[0]);
    objects.push(obj);
    lines.push(line);
  });
  const keys = images.map((im, i) => actionKey(im, objects[i]));
  return { file, images, objects, lines, index: indexKeys(file, keys, lines, problems, 'person') };
}

/** Reads a list file with one of the parsers above; a missing file is a problem in the collector. */
export async function readList<T>(
  path: string,
  parse: (text: string, file: string, problems: ProblemCollector) => T,
  problems: ProblemCollector,
  expected = 'an image-set list',
): Promise<T | undefined> {
  const text = await readTextInput(path, expected, problems, () => imageSetHint(path));
  return text === undefined ? undefined : parse(text, path, problems);
}
