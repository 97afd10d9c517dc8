import { inputError } from '@cvdevkit/core';
import { readInputText } from './input-file.js';
import { str2double } from './numbers.js';
import { parseFullXml } from './xml-full.js';
import { scanPlainXml } from './xml-scan.js';

/** A leaf element is its trimmed text; an element with children maps tag → value (repeated → array). */
export type XmlValue = string | XmlElement;
export interface XmlElement {
  [tag: string]: XmlValue | XmlValue[];
}

/**
 * Parses annotation XML the way the devkits' `VOCxml2struct.m` reads it: every TAB, LF and CR is
 * deleted first (so a newline inside a value disappears: "1\n2" → "12"), text is trimmed, no
 * attribute or entity processing. A repeated child becomes an array. Unlike the official parser,
 * an XML declaration, comments and indentation with spaces are accepted.
 * Malformed XML (mismatched tags, no root element) is a DevkitError naming the file, the line and
 * column, what was expected and found (in cvdevkit's words, not the parser's).
 * Plain files (no attributes, comments or declaration: the annotation files) take a one-pass scanner
 * (`xml-scan.ts`); anything else, and every error, the full parser (`xml-full.ts`), with the same result.
 */
export function parseDevkitXml(text: string, file?: string): XmlElement {
  const root = scanPlainXml(text) ?? parseFullXml(text, file);
  if (typeof root !== 'object' || Object.keys(root).length === 0) {
    throw inputError({ code: 'input/xml', file, expected: 'an XML root element', found: 'none' });
  }
  return root;
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

export interface PascalObject {
  name: string;
  pose: string;
  truncated: boolean;
  occluded: boolean;
  difficult: boolean;
  /** xmin, ymin, xmax, ymax, each through str2double (NaN when missing or not a number). */
  bbox: [number, number, number, number];
  /** The texts of xmin, ymin, xmax, ymax as written (undefined when the element is missing), for messages. */
  bboxText: [string | undefined, string | undefined, string | undefined, string | undefined];
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
  const text: PascalObject['bboxText'] = [childText(bb, 'xmin'), childText(bb, 'ymin'), childText(bb, 'xmax'), childText(bb, 'ymax')];
  const obj: PascalObject = {
    name: childText(el, 'name') ?? '',
    pose: pose === 'Unspecified' ? '' : pose,
    truncated: childText(el, 'truncated') === '1',
    occluded: childText(el, 'occluded') === '1',
    difficult: childText(el, 'difficult') === '1',
    bbox: [str2double(text[0]), str2double(text[1]), str2double(text[2]), str2double(text[3])],
    bboxText: text,
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

/** Reads and parses one annotation file through the input layer (regular file, `xml` size cap). */
export async function readPascalAnnotation(path: string): Promise<PascalAnnotation> {
  return parsePascalAnnotation(await readInputText(path, { kind: 'xml', expected: 'an annotation file' }), path);
}
