import type { Problem } from '@cvdevkit/core';
import { readInputTextSync, str2double } from '@cvdevkit/formats';
import { childArray, childText, parseDevkitXml, type XmlElement, type XmlValue } from '@cvdevkit/formats/xml';
import { isDevkitError } from '@cvdevkit/core';

const COORDS = ['xmin', 'ymin', 'xmax', 'ymax'] as const;

/** The objects of one annotation file, as the devkit reads them. */
export interface AnnotationObjects {
  /** Class label of each object (1-based position of its WNID in the meta file). */
  labels: number[];
  /** 4 numbers per object: xmin, ymin, xmax, ymax (via `str2double`, so floats are kept, junk is NaN). */
  boxes: number[];
  /** `<generated>1</generated>` (VID); the official code ignores it. */
  generated: number[];
  /** The image's `<size><width>`/`<height>` (NaN when absent or unreadable); only the size analysis uses them. */
  width: number;
  height: number;
}

function asElement(v: XmlValue | undefined): XmlElement | undefined {
  return typeof v === 'object' ? v : v === '' ? {} : undefined;
}

/**
 * Reads the `<object>`s of a PASCAL-format ILSVRC annotation the way `eval_detection.m` does
 * (L66-91): the XML quirks of `VOCxml2struct.m` (TAB/LF/CR deleted, values trimmed), each object's
 * `<name>` mapped by the meta hash, its `<bndbox>` read with `str2double`. Every other tag
 * (`difficult`, `truncated`, `occluded`, `trackid`, …) is ignored; `generated` is kept for the
 * optional VID mode. Problems (unknown WNID, missing `<name>`/`<bndbox>`) are pushed to `problems`.
 */
export function readAnnotationObjects(text: string, file: string, labelOf: ReadonlyMap<string, number>, problems: Problem[]): AnnotationObjects {
  const out: AnnotationObjects = { labels: [], boxes: [], generated: [], width: NaN, height: NaN };
  let doc: XmlElement;
  try {
    doc = parseDevkitXml(text, file);
  } catch (e) {
    if (isDevkitError(e)) {
      problems.push(...e.problems);
      return out;
    }
    throw e;
  }
  const root = asElement(Array.isArray(doc.annotation) ? doc.annotation[0] : doc.annotation);
  if (!root) {
    problems.push({ code: 'input/xml', file, field: 'annotation', expected: 'an <annotation> root element', found: `<${Object.keys(doc)[0]}>` });
    return out;
  }
  const size = asElement(Array.isArray(root.size) ? root.size[0] : root.size);
  if (size) {
    out.width = str2double(childText(size, 'width') ?? '');
    out.height = str2double(childText(size, 'height') ?? '');
  }
  const objects = childArray(root, 'object');
  for (let j = 0; j < objects.length; j++) {
    const obj = asElement(objects[j]) ?? {};
    const where = `annotation.object(${j + 1})`;
    const name = childText(obj, 'name');
    if (name === undefined) {
      problems.push({ code: 'input/xml', file, field: `${where}.name`, expected: 'a <name> with the WNID', found: 'none' });
      continue;
    }
    const label = labelOf.get(name);
    if (label === undefined) {
      problems.push({ code: 'input/unknown-wnid', file, field: `${where}.name`, expected: 'a WNID of the meta file', found: JSON.stringify(name), hint: 'the official code fails on it' });
      continue;
    }
    const bb = asElement(Array.isArray(obj.bndbox) ? obj.bndbox[0] : obj.bndbox);
    if (!bb) {
      problems.push({ code: 'input/xml', file, field: `${where}.bndbox`, expected: 'a <bndbox> with xmin, ymin, xmax, ymax', found: 'none' });
      continue;
    }
    // A missing coordinate element is an error in the official code (a missing struct field); a value
    // str2double cannot read stays NaN, as there.
    const coords = COORDS.map((c) => childText(bb, c));
    const missing = COORDS.filter((_, k) => coords[k] === undefined);
    if (missing.length > 0) {
      problems.push({ code: 'input/xml', file, field: `${where}.bndbox`, expected: 'a <bndbox> with xmin, ymin, xmax, ymax', found: `no ${missing.map((m) => `<${m}>`).join(', ')}`, hint: 'the official code fails on it' });
      continue;
    }
    out.labels.push(label);
    out.boxes.push(str2double(coords[0]), str2double(coords[1]), str2double(coords[2]), str2double(coords[3]));
    out.generated.push(childText(obj, 'generated') === '1' ? 1 : 0);
  }
  return out;
}

/** The objects of a run of annotation files, packed (what a worker returns). */
export interface PackedObjects {
  /** Objects per file. */
  counts: Int32Array;
  labels: Int32Array;
  boxes: Float64Array;
  generated: Uint8Array;
  /** Per file: width, height (NaN when the annotation has no `<size>`). */
  sizes: Float64Array;
  problems: Problem[];
}

export function packObjects(perFile: AnnotationObjects[], problems: Problem[]): PackedObjects {
  let total = 0;
  for (const a of perFile) total += a.labels.length;
  const counts = new Int32Array(perFile.length);
  const labels = new Int32Array(total);
  const boxes = new Float64Array(total * 4);
  const generated = new Uint8Array(total);
  const sizes = new Float64Array(2 * perFile.length);
  let k = 0;
  for (let i = 0; i < perFile.length; i++) {
    const a = perFile[i];
    counts[i] = a.labels.length;
    sizes[2 * i] = a.width;
    sizes[2 * i + 1] = a.height;
    for (let j = 0; j < a.labels.length; j++, k++) {
      labels[k] = a.labels[j];
      generated[k] = a.generated[j];
      for (let q = 0; q < 4; q++) boxes[4 * k + q] = a.boxes[4 * j + q];
    }
  }
  return { counts, labels, boxes, generated, sizes, problems };
}

/**
 * Reads and parses a list of annotation files into packed arrays (one chunk of the ground truth; runs on
 * the calling thread or in a worker). A missing file becomes a problem and an empty annotation.
 */
export function parseAnnotationFiles(files: readonly string[], labelOf: Map<string, number>): PackedObjects {
  const problems: Problem[] = [];
  const perFile: AnnotationObjects[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = readInputTextSync(file, { kind: 'xml', expected: 'an annotation XML file' });
    } catch (e) {
      if (!isDevkitError(e)) throw e;
      problems.push(...e.problems);
      perFile.push({ labels: [], boxes: [], generated: [], width: NaN, height: NaN });
      continue;
    }
    perFile.push(readAnnotationObjects(text, file, labelOf, problems));
  }
  return packObjects(perFile, problems);
}
