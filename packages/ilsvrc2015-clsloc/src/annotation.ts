import { DevkitError, isDevkitError, type Problem } from '@cvdevkit/core';
import { str2double } from '@cvdevkit/formats';
import { childArray, parseDevkitXml, type XmlElement, type XmlValue } from '@cvdevkit/formats/xml';

/** Label given to an object whose WNID is not in the synset map (`get_class2node` returns `[]`). */
export const UNKNOWN_LABEL = -1;

/** The objects of one annotation, as `VOCreadrecxml.m` + `rmfield(…,{'class','bndbox'})` keep them. */
export interface AnnotationObjects {
  /** One label per object (UNKNOWN_LABEL for a WNID the synset map does not know). */
  labels: number[];
  /** 4 numbers per object: xmin, ymin, xmax, ymax. */
  boxes: number[];
  /** The first WNID the map does not know, if any. */
  unknownWnid?: string;
}

const OFFICIAL = 'the official VOCreadrecxml.m / eval_clsloc.m fail without it';

function element(v: XmlValue | XmlValue[] | undefined): XmlElement | undefined {
  const first = Array.isArray(v) ? v[0] : v;
  return typeof first === 'object' ? first : undefined;
}

/**
 * Reads one CLS-LOC annotation (ILSVRC/PASCAL XML with WNID `<name>`s) the way `eval_clsloc.m`
 * does: the fields `VOCreadrecxml.m` requires (folder, filename, source/database, size/width,
 * size/height) must exist; at least one `<object>` (else `rmfield` fails); each object needs a
 * `<name>` and one `<bndbox>` with numeric xmin, ymin, xmax, ymax (read with str2double).
 * All problems of the file are returned together in one DevkitError.
 */
export function readAnnotationObjects(text: string, file: string, synsets: ReadonlyMap<string, number>): AnnotationObjects {
  const doc = parseDevkitXml(text, file);
  const problems: Problem[] = [];
  const need = (field: string, expected: string, found = 'nothing') =>
    problems.push({ code: 'input/annotation', file, field, expected, found, hint: OFFICIAL });
  const root = element(doc.annotation);
  if (!root) {
    need('annotation', 'an <annotation> root element', `<${Object.keys(doc)[0] ?? ''}>`);
    throw new DevkitError({ kind: 'input', ...problems[0], problems });
  }
  for (const f of ['folder', 'filename']) if (root[f] === undefined) need(`annotation.${f}`, `a <${f}> element`);
  const source = element(root.source);
  if (!source || source.database === undefined) need('annotation.source.database', 'a <source><database> element');
  const size = element(root.size);
  if (!size || size.width === undefined || size.height === undefined) need('annotation.size', 'a <size> element with <width> and <height>');
  const objects = childArray(root, 'object');
  if (objects.length === 0) need('annotation.object', 'at least one <object> (rmfield fails on an image without objects)');
  const out: AnnotationObjects = { labels: [], boxes: [] };
  objects.forEach((o, k) => {
    const where = `annotation.object(${k + 1})`;
    if (typeof o !== 'object') {
      need(where, 'an <object> with <name> and <bndbox>', JSON.stringify(o));
      return;
    }
    const name = o.name;
    if (typeof name !== 'string') {
      need(`${where}.name`, 'one <name> element with a WNID', name === undefined ? 'nothing' : 'a nested or repeated element');
      return;
    }
    const bbv = o.bndbox;
    if (bbv === undefined || Array.isArray(bbv) || typeof bbv !== 'object') {
      need(`${where}.bndbox`, 'one <bndbox> with <xmin> <ymin> <xmax> <ymax>', bbv === undefined ? 'nothing' : Array.isArray(bbv) ? `${bbv.length} <bndbox> elements` : JSON.stringify(bbv));
      return;
    }
    const coords: number[] = [];
    for (const c of ['xmin', 'ymin', 'xmax', 'ymax']) {
      const v = bbv[c];
      const x = typeof v === 'string' ? str2double(v) : NaN;
      if (!Number.isFinite(x)) {
        need(`${where}.bndbox.${c}`, 'a number', v === undefined ? 'nothing' : typeof v === 'string' ? JSON.stringify(v) : 'a nested or repeated element');
      }
      coords.push(x);
    }
    const label = synsets.get(name);
    if (label === undefined && out.unknownWnid === undefined) out.unknownWnid = name;
    out.labels.push(label ?? UNKNOWN_LABEL);
    out.boxes.push(coords[0], coords[1], coords[2], coords[3]);
  });
  if (problems.length > 0) throw new DevkitError({ kind: 'input', ...problems[0], problems });
  return out;
}

/** The ground truth of a chunk of annotation files, in flat arrays (transferable between threads). */
export interface AnnotationChunk {
  /** Objects per file. */
  counts: Int32Array;
  labels: Int32Array;
  boxes: Float64Array;
  /** [index within the chunk, WNID] for files with a WNID the synset map does not know. */
  unknown: [number, string][];
  problems: Problem[];
}

/** Parses `texts` (one per file) into an AnnotationChunk, collecting every file's problems (up to `limit`). */
export function readAnnotationChunk(
  texts: readonly string[],
  files: readonly string[],
  synsets: ReadonlyMap<string, number>,
  limit = 50,
): AnnotationChunk {
  const counts = new Int32Array(texts.length);
  const labels: number[] = [];
  const boxes: number[] = [];
  const unknown: [number, string][] = [];
  const problems: Problem[] = [];
  for (let i = 0; i < texts.length; i++) {
    try {
      const a = readAnnotationObjects(texts[i], files[i], synsets);
      counts[i] = a.labels.length;
      for (const l of a.labels) labels.push(l);
      for (const b of a.boxes) boxes.push(b);
      if (a.unknownWnid !== undefined) unknown.push([i, a.unknownWnid]);
    } catch (e) {
      if (!isDevkitError(e) || e.kind !== 'input') throw e;
      for (const p of e.problems) if (problems.length < limit) problems.push(p);
    }
  }
  return { counts, labels: Int32Array.from(labels), boxes: Float64Array.from(boxes), unknown, problems };
}
