/**
 * `VOCwritexml.m` style XML: every field of a struct becomes an element, struct arrays repeat the element,
 * a struct is opened and closed on lines of its own and a value is written as `<tag>value</tag>` on one
 * line, indented with one TAB per depth; empty fields are skipped. No XML declaration, no attributes, no
 * escaping (the official reader, VOCxml2struct, decodes none).
 */
import { inputError } from '@cvdevkit/core';
import { formatExact, num2str } from './numbers.js';
import { writeTextFile } from './text-results.js';

export type VocXmlValue = string | number | VocXmlStruct | readonly VocXmlStruct[] | readonly (string | number)[] | undefined | null;
export interface VocXmlStruct {
  [field: string]: VocXmlValue;
}

export interface VocXmlOptions {
  /** `exact` (default): numbers read back to the same double; `num2str`: MATLAB num2str, as VOCwritexml. */
  numbers?: 'exact' | 'num2str';
}

function isStruct(v: unknown): v is VocXmlStruct {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The XML text of `rec` (its fields are the top-level elements). */
export function formatVocXml(rec: VocXmlStruct, options: VocXmlOptions = {}): string {
  const num = options.numbers === 'num2str' ? num2str : formatExact;
  const lines: string[] = [];
  const leaf = (tag: string, v: string | number, tabs: string, path: string) => {
    if (typeof v === 'number') return lines.push(`${tabs}<${tag}>${num(v)}</${tag}>`);
    if (typeof v !== 'string') throw inputError({ code: 'input/xml-value', field: path, expected: 'a string, number or struct', found: typeof v });
    if (/[<>]/.test(v)) throw inputError({ code: 'input/xml-value', field: path, expected: 'text without < or >', found: JSON.stringify(v) });
    lines.push(`${tabs}<${tag}>${v}</${tag}>`);
  };
  const write = (r: VocXmlStruct, depth: number, path: string) => {
    const tabs = '\t'.repeat(depth);
    for (const [tag, f] of Object.entries(r)) {
      if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(tag)) throw inputError({ code: 'input/xml-field', field: `${path}${tag}`, expected: 'a MATLAB field name', found: JSON.stringify(tag) });
      if (f === undefined || f === null || f === '' || (Array.isArray(f) && f.length === 0)) continue;
      const items = Array.isArray(f) ? f : [f];
      items.forEach((item, j) => {
        const where = `${path}${tag}${Array.isArray(f) ? `[${j}]` : ''}`;
        if (isStruct(item)) {
          lines.push(`${tabs}<${tag}>`);
          write(item, depth + 1, `${where}.`);
          lines.push(`${tabs}</${tag}>`);
        } else {
          leaf(tag, item as string | number, tabs, where);
        }
      });
    }
  };
  write(rec, 0, '');
  return lines.join('\n') + '\n';
}

/** One predicted person layout (`<layout>` of `Layout/<comp>_layout_<set>.xml`). */
export interface LayoutResult {
  image: string;
  /** 1-based index of the person among all objects of the image's annotation. */
  object: number;
  confidence: number;
  parts: readonly { class: 'head' | 'hand' | 'foot' | string; box: readonly [number, number, number, number] }[];
}

/** `<results><layout>…</layout>…</results>` as the official example code builds it. */
export function formatLayoutResults(layouts: readonly LayoutResult[], options: VocXmlOptions = {}): string {
  const layout = layouts.map((l, i) => {
    if (!Number.isInteger(l.object) || l.object < 1) throw inputError({ code: 'input/object-index', field: `layout[${i}].object`, expected: 'a 1-based object index', found: String(l.object) });
    return {
      image: l.image,
      object: l.object,
      confidence: l.confidence,
      part: l.parts.map((p) => ({ class: p.class, bndbox: { xmin: p.box[0], ymin: p.box[1], xmax: p.box[2], ymax: p.box[3] } })),
    };
  });
  return formatVocXml({ results: { layout } }, options);
}

export async function writeLayoutResults(file: string, layouts: readonly LayoutResult[], options: VocXmlOptions = {}): Promise<void> {
  await writeTextFile(file, formatLayoutResults(layouts, options));
}
