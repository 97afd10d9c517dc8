import { readFile } from 'node:fs/promises';
import { XMLParser } from 'fast-xml-parser';
import { inputError } from '@cvdevkit/core';

/** A leaf element is its trimmed text; an element with children maps tag → value (repeated → array). */
export type XmlValue = string | XmlElement;
export interface XmlElement {
  [tag: string]: XmlValue | XmlValue[];
}

const TEXT = '#text';

// preserveOrder skips fast-xml-parser's own object building (its `compress` pass) and jPath: false its
// path strings: together ~40% off the parse of a typical annotation; `fromOrdered` builds the same shape.
const parser = new XMLParser({
  ignoreAttributes: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  parseTagValue: false,
  trimValues: true,
  processEntities: false,
  commentPropName: false,
  cdataPropName: false,
  textNodeName: TEXT,
  preserveOrder: true,
  jPath: false,
});

/**
 * Parses annotation XML the way the devkits' `VOCxml2struct.m` reads it: every TAB, LF and CR is
 * deleted first (so a newline inside a value disappears: "1\n2" → "12"), text is trimmed, no
 * attribute or entity processing. A repeated child becomes an array. Unlike the official parser,
 * an XML declaration, comments and indentation with spaces are accepted.
 * Malformed XML (mismatched tags, no root element) is a DevkitError naming the file.
 */
export function parseDevkitXml(text: string, file?: string): XmlElement {
  const cleaned = text.replace(/[\t\n\r]/g, '');
  let parsed: unknown;
  try {
    parsed = parser.parse(cleaned, true);
  } catch (e) {
    // Positions refer to the text with line breaks removed, so they are left out.
    const msg = (e instanceof Error ? e.message : String(e)).replace(/:\d+:\d+$/, '').replace(/\.$/, '');
    throw inputError({ code: 'input/xml', file, expected: 'well-formed XML', found: msg });
  }
  const root = Array.isArray(parsed) ? fromOrdered(parsed as OrderedNode[]) : '';
  if (typeof root !== 'object' || Object.keys(root).length === 0) {
    throw inputError({ code: 'input/xml', file, expected: 'an XML root element', found: 'none' });
  }
  return root;
}

/** A node of fast-xml-parser's preserveOrder output: `{tag: children}` or `{'#text': text}`. */
type OrderedNode = Record<string, unknown>;

/**
 * One element from its ordered children: text only → the text (empty element → ''); with child
 * elements → tag → value (a repeated tag → array in document order), plus '#text' for mixed text.
 */
function fromOrdered(children: readonly OrderedNode[]): XmlValue {
  let text: string | undefined;
  let el: XmlElement | undefined;
  for (const node of children) {
    for (const tag in node) {
      const v = node[tag];
      if (tag === TEXT) {
        text = text === undefined ? String(v) : text + String(v);
        continue;
      }
      const value = Array.isArray(v) ? fromOrdered(v as OrderedNode[]) : '';
      el ??= {};
      const prev = Object.prototype.hasOwnProperty.call(el, tag) ? el[tag] : undefined;
      if (prev === undefined) {
        // a tag named __proto__ is data, not the prototype
        if (tag === '__proto__') Object.defineProperty(el, tag, { value, enumerable: true, writable: true, configurable: true });
        else el[tag] = value;
      } else if (Array.isArray(prev)) prev.push(value);
      else el[tag] = [prev, value];
    }
  }
  if (el === undefined) return text ?? '';
  if (text !== undefined) el[TEXT] = text;
  return el;
}

/** The children with this tag: [] when absent, [x] when single. */
export function childArray(el: XmlElement, tag: string): XmlValue[] {
  const v = el[tag];
  if (v === undefined) return [];
  return Array.isArray(v) ? v : [v];
}

/** The text of a leaf child (the first when repeated); undefined when absent or not a leaf. */
export function childText(el: XmlElement, tag: string): string | undefined {
  const v = el[tag];
  const first = Array.isArray(v) ? v[0] : v;
  return typeof first === 'string' ? first : undefined;
}

/** A child element (the first when repeated); undefined when absent or a leaf. */
export function childElement(el: XmlElement, tag: string): XmlElement | undefined {
  const v = el[tag];
  const first = Array.isArray(v) ? v[0] : v;
  return typeof first === 'object' ? first : first === '' ? {} : undefined;
}

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eEdD][+-]?\d+)?$/;
const SPECIAL = /^([+-]?)(inf|infinity|nan)$/i;

/**
 * MATLAB `str2double` on one string: surrounding white space is ignored; decimal numbers with an
 * optional sign, fraction and exponent (`e`, `E`, `d`, `D`), `Inf`, `-Inf`, `NaN` (any case) are
 * accepted and rounded correctly; anything else (and undefined) is NaN.
 */
export function str2double(s: string | undefined): number {
  if (s === undefined) return NaN;
  const t = s.trim();
  if (NUMBER.test(t)) return Number(t.replace(/[dD]/, 'e'));
  const m = SPECIAL.exec(t);
  if (m) {
    if (m[2].toLowerCase() === 'nan') return NaN;
    return m[1] === '-' ? -Infinity : Infinity;
  }
  return NaN;
}

export interface PascalObject {
  name: string;
  pose: string;
  truncated: boolean;
  occluded: boolean;
  difficult: boolean;
  /** xmin, ymin, xmax, ymax, each through str2double (NaN when missing or not a number). */
  bbox: [number, number, number, number];
  /** Person parts (`<part>` children), read recursively. */
  parts: PascalObject[];
  /** `<actions>` flags (`'1'` is true), when present. */
  actions?: Record<string, boolean>;
  /** The raw element, for fields this reader does not interpret. */
  element: XmlElement;
}

export interface PascalAnnotation {
  filename?: string;
  folder?: string;
  size?: { width: number; height: number; depth: number };
  segmented?: boolean;
  objects: PascalObject[];
  element: XmlElement;
}

function readObject(el: XmlElement): PascalObject {
  const bb = childElement(el, 'bndbox') ?? {};
  const pose = childText(el, 'pose') ?? '';
  const obj: PascalObject = {
    name: childText(el, 'name') ?? '',
    pose: pose === 'Unspecified' ? '' : pose,
    truncated: childText(el, 'truncated') === '1',
    occluded: childText(el, 'occluded') === '1',
    difficult: childText(el, 'difficult') === '1',
    bbox: [
      str2double(childText(bb, 'xmin')),
      str2double(childText(bb, 'ymin')),
      str2double(childText(bb, 'xmax')),
      str2double(childText(bb, 'ymax')),
    ],
    parts: childArray(el, 'part').map((p) => readObject(typeof p === 'object' ? p : {})),
    element: el,
  };
  const actions = childElement(el, 'actions');
  if (actions) {
    obj.actions = {};
    for (const [k, v] of Object.entries(actions)) obj.actions[k] = (Array.isArray(v) ? v[0] : v) === '1';
  }
  return obj;
}

/**
 * Reads a PASCAL-format annotation (VOC and ILSVRC): `<annotation>` with optional `filename`, `folder`,
 * `size`, `segmented` and any number of `<object>`s (name, pose, truncated, occluded, difficult,
 * bndbox, part, actions). Flags are true only for the exact text `1`, as `VOCreadrecxml.m` reads them.
 */
export function parsePascalAnnotation(text: string, file?: string): PascalAnnotation {
  const doc = parseDevkitXml(text, file);
  const root = childElement(doc, 'annotation');
  if (!root) {
    throw inputError({ code: 'input/xml', file, field: 'annotation', expected: 'an <annotation> root element', found: `<${Object.keys(doc)[0]}>` });
  }
  const ann: PascalAnnotation = {
    objects: childArray(root, 'object').map((o) => readObject(typeof o === 'object' ? o : {})),
    element: root,
  };
  const filename = childText(root, 'filename');
  if (filename !== undefined) ann.filename = filename;
  const folder = childText(root, 'folder');
  if (folder !== undefined) ann.folder = folder;
  const size = childElement(root, 'size');
  if (size) {
    ann.size = {
      width: str2double(childText(size, 'width')),
      height: str2double(childText(size, 'height')),
      depth: str2double(childText(size, 'depth')),
    };
  }
  const segmented = childText(root, 'segmented');
  if (segmented !== undefined) ann.segmented = segmented === '1';
  return ann;
}

/** Reads and parses one annotation file. A missing file is a DevkitError naming it. */
export async function readPascalAnnotation(path: string): Promise<PascalAnnotation> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw inputError({ code: 'input/missing-file', file: path, expected: 'an annotation file', found: 'no such file' });
  }
  return parsePascalAnnotation(text, path);
}
