/**
 * The plain-XML scanner against the full parser (fast-xml-parser + validator): on random element
 * trees, written with random white space and text and then mutated, `parseDevkitXml` must give the full
 * parser's tree (same keys in the same order) or the same error message, and wherever the scanner
 * accepts a text the full parser must accept it with the same tree.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inputError } from '@cvdevkit/core';
import { parseDevkitXml, type XmlElement } from './xml.js';
import { parseFullXml } from './xml-full.js';
import { scanPlainXml } from './xml-scan.js';

/** `parseDevkitXml` as it was before the scanner: the full parser only. */
function fullOnly(text: string): XmlElement {
  const root = parseFullXml(text, 'f.xml');
  if (typeof root !== 'object' || Object.keys(root).length === 0) {
    throw inputError({ code: 'input/xml', file: 'f.xml', expected: 'an XML root element', found: 'none' });
  }
  return root;
}

type Outcome = { ok: string } | { error: string; problems: string };
function outcome(fn: () => XmlElement): Outcome {
  try {
    return { ok: JSON.stringify(fn()) };
  } catch (e) {
    const err = e as Error & { problems?: unknown };
    return { error: err.message, problems: JSON.stringify(err.problems) };
  }
}

/** Mostly what annotation files hold, sometimes what the scanner must leave to the full parser. */
const mostly = (usual: string[], odd: string[]) => fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...usual) }, { weight: 1, arbitrary: fc.constantFrom(...odd) });
const NAMES = ['annotation', 'object', 'name', 'bndbox', 'xmin', 'a', 'b', '_x', 'a.b', 'a-b', 'A1', 'xml'];
const ODD_NAMES = ['constructor', 'toString', '__proto__', 'hasOwnProperty', '1a', 'a:b', 'é', '-a', '.a'];
const TEXTS = ['', '1', ' 12 ', '4\n0', '\t7\r\n', 'dog', 'a b', '\u00a0x\u00a0', '\u00a0', 'é', '"q"', "'", '--', ']]', '\v', '\f', '\u2028', '\ufeff'];
const ODD_TEXTS = ['&amp;', 'a&b', 'a>b', 'x<y', ']]>', '<!-- c -->', '<![CDATA[x]]>'];
const SPACE = fc.constantFrom('', '', ' ', '\n', '\t', '\r\n', '\n\t\t', '  ', '\u00a0');

interface Node {
  name: string;
  close: string;
  body: Node[] | string;
}
const { node } = fc.letrec((tie) => ({
  node: fc.record({
    name: mostly(NAMES, ODD_NAMES),
    close: fc.oneof({ weight: 12, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constantFrom(...NAMES, ...ODD_NAMES) }),
    body: fc.oneof({ depthSize: 'small', withCrossShrink: true }, mostly(TEXTS, ODD_TEXTS), fc.array(tie('node') as fc.Arbitrary<Node>, { maxLength: 4 })),
  }),
}));

/** The tree as text, the white space between elements taken in turn from `sp`. */
const write = (n: Node, sp: string[]): string => {
  let k = 0;
  const s = () => (sp.length === 0 ? '' : sp[k++ % sp.length]);
  const el = (m: Node): string => {
    const body = typeof m.body === 'string' ? m.body : m.body.map((c) => s() + el(c)).join('') + s();
    return `<${m.name}>${body}</${m.close || m.name}>`;
  };
  return el(n);
};

const docs = fc
  .tuple(SPACE, node as fc.Arbitrary<Node>, fc.array(SPACE, { maxLength: 3 }), SPACE, mostly([''], ['<?xml version="1.0"?>', '<!-- c -->', '<b>2</b>', 'x', '<a x="1">3</a>', '<a/>']))
  .map(([pre, n, sp, post, extra]) => pre + write(n, sp) + post + extra);

/** A text with a few characters changed, cut or inserted. */
const mutate = (text: string) =>
  fc.array(fc.record({ at: fc.nat(), ch: fc.constantFrom('<', '>', '/', ' ', '\n', 'a', '&', '!', '?', '"', '='), kind: fc.constantFrom('set', 'cut', 'insert') }), { minLength: 1, maxLength: 3 }).map((edits) => {
    let t = text;
    for (const e of edits) {
      const at = t.length === 0 ? 0 : e.at % t.length;
      if (e.kind === 'set') t = t.slice(0, at) + e.ch + t.slice(at + 1);
      else if (e.kind === 'cut') t = t.slice(0, at);
      else t = t.slice(0, at) + e.ch + t.slice(at);
    }
    return t;
  });

function sameAsFullParser(text: string): boolean {
  const scanned = scanPlainXml(text);
  if (scanned !== undefined) expect(JSON.stringify(scanned)).toBe(JSON.stringify(fullOnly(text)));
  expect(outcome(() => parseDevkitXml(text, 'f.xml'))).toEqual(outcome(() => fullOnly(text)));
  return scanned !== undefined;
}

describe('scanPlainXml', () => {
  it('gives the full parser’s tree or the same error on random element trees', () => {
    let accepted = 0;
    let total = 0;
    fc.assert(
      fc.property(docs, (text) => {
        total++;
        if (sameAsFullParser(text)) accepted++;
      }),
      { numRuns: 1000 },
    );
    // the subset is reached (not everything falls back)
    expect(accepted).toBeGreaterThan(total / 4);
  });

  it('and on mutated trees', () => {
    fc.assert(
      fc.property(
        docs.chain((d) => mutate(d)),
        (text) => void sameAsFullParser(text),
      ),
      { numRuns: 1000 },
    );
  });

  it('accepts a PASCAL annotation as written (tabs, newlines, repeated objects)', () => {
    const text = '<annotation>\n\t<folder>VOC2010</folder>\n\t<object>\n\t\t<name>dog</name>\n\t\t<bndbox><xmin>1</xmin><ymin>4\n0</ymin></bndbox>\n\t</object>\n\t<object><name>cat</name><pose></pose></object>\n</annotation>\n';
    expect(scanPlainXml(text)).toEqual({ annotation: { folder: 'VOC2010', object: [{ name: 'dog', bndbox: { xmin: '1', ymin: '40' } }, { name: 'cat', pose: '' }] } });
    sameAsFullParser(text);
  });

  it('leaves declarations, comments, attributes, entities and mixed text to the full parser', () => {
    for (const t of ['<?xml version="1.0"?><a>1</a>', '<a><!-- c --><b>1</b></a>', '<a x="1">1</a>', '<a>&amp;</a>', '<a>x<b>1</b></a>', '<a><b/></a>', '<__proto__>1</__proto__>', '<a>1</a><b>2</b>']) {
      expect(scanPlainXml(t)).toBeUndefined();
      sameAsFullParser(t);
    }
  });
});
