/**
 * The fast path of a PASCAL annotation read: one pass over the file's bytes straight to the boxes and flags
 * an evaluation uses, with no XML tree, no string per element and no text decoding. It gives what
 * `parsePascalAnnotation` (`xml.ts`) gives for the same file, reduced to the fields of a `PascalRecord`, and
 * answers `undefined` for anything it does not take, which the caller then reads the ordinary way (so every
 * message for bad input is the ordinary reader's: this scanner only has to be right on what it accepts; the
 * fuzz test `xml-pascal-scan.test.ts` checks it against `parsePascalAnnotation` on generated documents).
 *
 * What it takes: the plain XML of `xml-scan.ts` (elements without attributes, text without markup; white
 * space = space, TAB, LF, CR around elements; no declaration, comment, CDATA, self-closing tag or mixed
 * content; no tag name that `Object.prototype` has) in printable ASCII, whose root is `<annotation>` with
 * child elements, where every `<object>` and every `<part>` is an element whose first `<name>` is a non-empty
 * text and whose first `<bndbox>` is an element with the four coordinates (first `<xmin>`, `<ymin>`, `<xmax>`,
 * `<ymax>`) as `str2double` numbers; and no text with a TAB, LF or CR between its first and last character.
 * The rest, as `parsePascalAnnotation` reads it: the first occurrence of a field counts, a flag is true only
 * for the text `1`, a pose `Unspecified` is `''`, `<size>` gives width and height (NaN where not a number).
 */
import { str2double } from './numbers.js';

/** A box: xmin, ymin, xmax, ymax. */
export type PascalBox = [number, number, number, number];

/** A `<part>`: its name and box. */
export interface PascalRecordPart {
  name: string;
  bbox: PascalBox;
}

/** An `<object>` as the evaluations use it. */
export interface PascalRecordObject {
  name: string;
  pose: string;
  truncated: boolean;
  occluded: boolean;
  difficult: boolean;
  bbox: PascalBox;
  parts: PascalRecordPart[];
  actions?: Record<string, boolean>;
}

/** The objects of an annotation, and its `<size>` (width, height) when it has one. */
export interface PascalRecord {
  objects: PascalRecordObject[];
  size?: { width: number; height: number };
}

const LT = 60;
const GT = 62;
const SLASH = 47;
const AMP = 38;

/** Names `Object.prototype` has: the plain scanner leaves those to the full parser, and so does this one. */
const PROTO_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));
/** Their first characters and longest length, to test most names without making a string. */
const PROTO_FIRST = new Set([...PROTO_NAMES].map((s) => s.charCodeAt(0)));
const PROTO_LONGEST = Math.max(...[...PROTO_NAMES].map((s) => s.length));
/** Deeper nesting than this is left to the ordinary reader (the scanner recurses). */
const MAX_DEPTH = 64;

/** Thrown (and caught in `scanPascalRecord`) when the input is not in the subset: the caller reads it the ordinary way. */
class NotPlain {}
const NOT_PLAIN = new NotPlain();

// The scanner's state (one document at a time; the module is single-threaded).
let buf: Uint8Array = new Uint8Array(0);
let pos = 0;
let end = 0;
/** The open tag's name span: `buf[nameStart, nameEnd)`. */
let nameStart = 0;
let nameEnd = 0;
/** What `element` found: EMPTY (`''`), TEXT (`buf[textStart, textEnd)`) or CHILDREN. */
const EMPTY = 0;
const TEXT = 1;
const CHILDREN = 2;
let textStart = 0;
let textEnd = 0;
let depth = 0;

function skipSpace(): void {
  // locals, not the module's variables, in the per-byte loops: faster before the JIT has optimised them
  const b = buf;
  const e = end;
  let p = pos;
  while (p < e) {
    const c = b[p];
    if (c !== 32 && c !== 10 && c !== 9 && c !== 13) break;
    p++;
  }
  pos = p;
}

/** Reads `<name>` at `pos` (after white space): sets the name span, `pos` after `>`. */
function openTag(): void {
  const b = buf;
  const e = end;
  if (b[pos] !== LT) throw NOT_PLAIN;
  let j = pos + 1;
  const c = b[j];
  if (!((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95)) throw NOT_PLAIN;
  for (j++; j < e; j++) {
    const d = b[j];
    if (!((d >= 97 && d <= 122) || (d >= 65 && d <= 90) || (d >= 48 && d <= 57) || d === 95 || d === 46 || d === 45)) break;
  }
  if (j >= e || b[j] !== GT) throw NOT_PLAIN;
  nameStart = pos + 1;
  nameEnd = j;
  pos = j + 1;
}

/** Whether the name span is `word` (ASCII). */
function nameIs(word: string): boolean {
  const n = word.length;
  if (nameEnd - nameStart !== n) return false;
  for (let k = 0; k < n; k++) if (buf[nameStart + k] !== word.charCodeAt(k)) return false;
  return true;
}

/** The name span as a string (ASCII: latin1 is UTF-8 here). */
function nameText(): string {
  let s = '';
  for (let k = nameStart; k < nameEnd; k++) s += String.fromCharCode(buf[k]);
  return s;
}

/** Checks `</name>` at `pos` for the name at `a..b`, and moves past it. */
function closeTag(a: number, b: number): void {
  const n = b - a;
  const bytes = buf;
  const p = pos;
  if (p + n + 3 > end || bytes[p] !== LT || bytes[p + 1] !== SLASH || bytes[p + 2 + n] !== GT) throw NOT_PLAIN;
  for (let k = 0; k < n; k++) if (bytes[p + 2 + k] !== bytes[a + k]) throw NOT_PLAIN;
  pos = p + n + 3;
}

/**
 * After an opening tag: the element's content up to and past its closing tag. Returns EMPTY or TEXT (its
 * span in `textStart..textEnd`) for a leaf; for an element with children, calls `child(kind)` for each child
 * (with `pos` just after the child's opening tag and its name span set) and returns CHILDREN.
 */
function element(child: (() => void) | undefined): number {
  const a = nameStart;
  const b = nameEnd;
  if (b - a <= PROTO_LONGEST && PROTO_FIRST.has(buf[a]) && PROTO_NAMES.has(nameText())) throw NOT_PLAIN;
  skipSpace();
  if (pos >= end) throw NOT_PLAIN;
  if (buf[pos] === LT) {
    if (buf[pos + 1] === SLASH) {
      closeTag(a, b);
      return EMPTY;
    }
    if (++depth > MAX_DEPTH) throw NOT_PLAIN;
    for (;;) {
      openTag();
      if (child) child();
      else element(undefined);
      skipSpace();
      if (pos >= end) throw NOT_PLAIN;
      if (buf[pos + 1] === SLASH) {
        closeTag(a, b);
        depth--;
        return CHILDREN;
      }
    }
  }
  // text up to the closing tag: printable ASCII without > and &, white space at its ends only
  const bytes = buf;
  const e = end;
  const s = pos;
  let last = s;
  let p = s;
  for (; p < e; p++) {
    const c = bytes[p];
    if (c === LT) break;
    if (c === 32 || c === 9 || c === 10 || c === 13) continue;
    if (c < 32 || c > 126 || c === GT || c === AMP) throw NOT_PLAIN;
    if (p > last + 1) for (let k = last + 1; k < p; k++) if (bytes[k] !== 32) throw NOT_PLAIN; // TAB, LF, CR inside
    last = p;
  }
  pos = p;
  textStart = s;
  textEnd = last + 1;
  closeTag(a, b);
  return TEXT;
}

/** The text span as a string. */
function text(): string {
  let s = '';
  for (let k = textStart; k < textEnd; k++) s += String.fromCharCode(buf[k]);
  return s;
}

/** Whether the text span is exactly `1`. */
function textIsOne(): boolean {
  return textEnd - textStart === 1 && buf[textStart] === 49;
}

const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/**
 * `str2double` of the text span: a plain decimal of at most 15 digits (optional sign and fraction) exactly
 * (m / 10^f of two exact doubles is one correctly rounded division, as `Number` reads it), else `str2double`.
 */
function textNumber(): number {
  const bytes = buf;
  const e = textEnd;
  let p = textStart;
  let c = bytes[p];
  const neg = c === 45;
  if (c === 43 || c === 45) p++;
  let m = 0;
  let digits = 0;
  let frac = -1;
  for (; p < e; p++) {
    c = bytes[p];
    if (c >= 48 && c <= 57) {
      m = m * 10 + (c - 48);
      digits++;
      if (frac >= 0) frac++;
    } else if (c === 46 && frac < 0) frac = 0;
    else break;
  }
  if (p === e && digits > 0 && digits <= 15) {
    const v = frac > 0 ? m / POW10[frac] : m;
    return neg ? -v : v;
  }
  return str2double(text());
}

// ---- the annotation's structure ----

let objects: PascalRecordObject[] = [];
let size: { width: number; height: number } | undefined;
let sizeSeen = false;
/** Of the object or part being read: its fields' first occurrences. */
let fName: string | undefined;
let fNameSeen = false;
let fPose: string | undefined;
let fPoseSeen = false;
let fTrunc = false;
let fTruncSeen = false;
let fOccl = false;
let fOcclSeen = false;
let fDiff = false;
let fDiffSeen = false;
let fBox: PascalBox | undefined;
let fBoxSeen = false;
let fParts: PascalRecordPart[] = [];
let fActions: Record<string, boolean> | undefined;
let fActionsSeen = false;
/** Of the `<bndbox>` being read. */
const box: number[] = [NaN, NaN, NaN, NaN];
const boxSeen = [false, false, false, false];
/** Of the `<size>` being read. */
let sw = NaN;
let sh = NaN;
let swSeen = false;
let shSeen = false;

function rootChild(): void {
  if (nameIs('object')) return object();
  if (nameIs('size') && !sizeSeen) {
    sizeSeen = true;
    sw = NaN;
    sh = NaN;
    swSeen = false;
    shSeen = false;
    const kind = element(sizeChild);
    // a <size> with text is no element: no size, as `childElement` reads it
    if (kind !== TEXT) size = { width: sw, height: sh };
    return;
  }
  element(undefined);
}

function sizeChild(): void {
  if (nameIs('width') && !swSeen) {
    swSeen = true;
    sw = element(undefined) === TEXT ? textNumber() : NaN;
  } else if (nameIs('height') && !shSeen) {
    shSeen = true;
    sh = element(undefined) === TEXT ? textNumber() : NaN;
  } else element(undefined);
}

function startFields(): void {
  fName = undefined;
  fNameSeen = false;
  fPose = undefined;
  fPoseSeen = false;
  fTrunc = fOccl = fDiff = false;
  fTruncSeen = fOcclSeen = fDiffSeen = false;
  fBox = undefined;
  fBoxSeen = false;
  fParts = [];
  fActions = undefined;
  fActionsSeen = false;
}

function object(): void {
  startFields();
  if (element(objectChild) !== CHILDREN) throw NOT_PLAIN;
  if (!fName || fBox === undefined) throw NOT_PLAIN;
  const pose = fPose ?? '';
  const o: PascalRecordObject = {
    name: fName,
    pose: pose === 'Unspecified' ? '' : pose,
    truncated: fTrunc,
    occluded: fOccl,
    difficult: fDiff,
    bbox: fBox,
    parts: fParts,
  };
  if (fActions) o.actions = fActions;
  objects.push(o);
}

/** A first-occurrence leaf field: its text, or undefined when it is an element (as `childText` reads it). */
function leafText(): string | undefined {
  const kind = element(undefined);
  return kind === TEXT ? text() : kind === EMPTY ? '' : undefined;
}

/** A first-occurrence flag: true only for the text `1`. */
function leafFlag(): boolean {
  return element(undefined) === TEXT && textIsOne();
}

function objectChild(): void {
  if (nameIs('name')) {
    if (fNameSeen) return void element(undefined);
    fNameSeen = true;
    fName = leafText();
  } else if (nameIs('pose')) {
    if (fPoseSeen) return void element(undefined);
    fPoseSeen = true;
    fPose = leafText();
  } else if (nameIs('truncated')) {
    if (fTruncSeen) return void element(undefined);
    fTruncSeen = true;
    fTrunc = leafFlag();
  } else if (nameIs('occluded')) {
    if (fOcclSeen) return void element(undefined);
    fOcclSeen = true;
    fOccl = leafFlag();
  } else if (nameIs('difficult')) {
    if (fDiffSeen) return void element(undefined);
    fDiffSeen = true;
    fDiff = leafFlag();
  } else if (nameIs('bndbox')) {
    if (fBoxSeen) return void element(undefined);
    fBoxSeen = true;
    fBox = bndbox();
  } else if (nameIs('part')) {
    fParts.push(part());
  } else if (nameIs('actions')) {
    if (fActionsSeen) return void element(undefined);
    fActionsSeen = true;
    actions();
  } else element(undefined);
}

/** The first `<bndbox>`: an element with four numbers, else not taken. */
function bndbox(): PascalBox {
  box[0] = box[1] = box[2] = box[3] = NaN;
  boxSeen[0] = boxSeen[1] = boxSeen[2] = boxSeen[3] = false;
  if (element(boxChild) !== CHILDREN) throw NOT_PLAIN;
  const b: PascalBox = [box[0], box[1], box[2], box[3]];
  if (Number.isNaN(b[0]) || Number.isNaN(b[1]) || Number.isNaN(b[2]) || Number.isNaN(b[3])) throw NOT_PLAIN;
  return b;
}

function boxChild(): void {
  const k = nameIs('xmin') ? 0 : nameIs('ymin') ? 1 : nameIs('xmax') ? 2 : nameIs('ymax') ? 3 : -1;
  if (k < 0 || boxSeen[k]) return void element(undefined);
  boxSeen[k] = true;
  box[k] = element(undefined) === TEXT ? textNumber() : NaN;
}

/** A `<part>`: an element with a name and a box (its own parts and other fields are not used). */
function part(): PascalRecordPart {
  let name: string | undefined;
  let nameSeen = false;
  let bbox: PascalBox | undefined;
  let boxSeen = false;
  const kind = element(() => {
    if (nameIs('name')) {
      if (nameSeen) return void element(undefined);
      nameSeen = true;
      name = leafText();
    } else if (nameIs('bndbox')) {
      if (boxSeen) return void element(undefined);
      boxSeen = true;
      bbox = bndbox();
    } else element(undefined);
  });
  if (kind !== CHILDREN || !name || bbox === undefined) throw NOT_PLAIN;
  return { name, bbox };
}

/** The first `<actions>`: each child tag's first value is `1` or not; `''` → no flags; a text → none. */
function actions(): void {
  const flags: Record<string, boolean> = {};
  const kind = element(() => {
    const tag = nameText();
    const first = !Object.prototype.hasOwnProperty.call(flags, tag);
    const one = element(undefined) === TEXT && textIsOne();
    if (first) flags[tag] = one;
  });
  if (kind !== TEXT) fActions = flags;
}

/**
 * The record of the annotation in `bytes[0, length)`, or `undefined` when the file is not in the subset
 * above (read it with `parsePascalAnnotation` then: it gives the same record, or the message for the file).
 */
export function scanPascalRecord(bytes: Uint8Array, length = bytes.length): PascalRecord | undefined {
  buf = bytes;
  pos = 0;
  end = Math.min(length, bytes.length);
  objects = [];
  size = undefined;
  sizeSeen = false;
  depth = 0;
  try {
    skipSpace();
    openTag();
    if (!nameIs('annotation')) return undefined;
    if (element(rootChild) !== CHILDREN) return undefined;
    skipSpace();
    if (pos !== end) return undefined;
    const out: PascalRecord = { objects };
    if (size) out.size = size;
    return out;
  } catch (e) {
    if (e === NOT_PLAIN) return undefined;
    throw e;
  } finally {
    buf = new Uint8Array(0);
    objects = [];
  }
}
