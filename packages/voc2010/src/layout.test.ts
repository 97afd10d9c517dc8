import { describe, expect, it } from 'vitest';
import { ProblemCollector } from '@cvdevkit/core';
import { averagePrecisionArea } from '@cvdevkit/metrics';
import { parseLayoutList } from './image-sets.js';
import { evaluateLayoutPredictions, parseLayoutResults } from './layout.js';

const XML = `<results>
\t<layout>
\t\t<image>a</image>
\t\t<object>1</object>
\t\t<confidence>0.9</confidence>
\t\t<part><class>head</class><bndbox><xmin>1</xmin><ymin>1</ymin><xmax>10</xmax><ymax>10</ymax></bndbox></part>
\t\t<part><class>hand</class><bndbox><xmin>1</xmin><ymin>1</ymin><xmax>4</xmax><ymax>4</ymax></bndbox></part>
\t</layout>
\t<layout>
\t\t<image>a</image>
\t\t<object>1</object>
\t\t<confidence>junk</confidence>
\t</layout>
\t<layout>
\t\t<image>b</image>
\t\t<object>7</object>
\t\t<confidence>0.95</confidence>
\t</layout>
</results>
`;

describe('layout results', () => {
  it('parses layouts with their lines; unparsable confidence is NaN', () => {
    const p = new ProblemCollector();
    const preds = parseLayoutResults(XML, 'l.xml', p);
    expect(p.size).toBe(0);
    expect(preds.map((x) => [x.image, x.object, x.line])).toEqual([
      ['a', 1, 2],
      ['a', 1, 9],
      ['b', 7, 14],
    ]);
    expect(preds[1].confidence).toBeNaN();
    expect(preds[0].parts).toEqual([
      { cls: 0, bbox: [1, 1, 10, 10] },
      { cls: 1, bbox: [1, 1, 4, 4] },
    ]);
  });

  it('warns about unrecognized and duplicate layouts in ranked order, with lines', () => {
    const p = new ProblemCollector();
    const preds = parseLayoutResults(XML, 'l.xml', p);
    const list = parseLayoutList('a 1\n', 'val.txt', p);
    const gt = { parts: [[{ cls: 0, bbox: [1, 1, 10, 10] as [number, number, number, number] }]], npos: [1, 0, 0] };
    const { entries, warnings } = evaluateLayoutPredictions(preds, list, gt, averagePrecisionArea, 'l.xml');
    expect(warnings.map((w) => [w.code, w.message, w.line])).toEqual([
      ['layout/unrecognized', 'unrecognized layout: image b, object 7', 14],
      ['layout/duplicate', 'duplicate layout: image a, object 1', 9],
    ]);
    expect(entries.map((e) => e.ap)).toEqual([1, NaN, 0]);
  });

  it('reports missing elements and unknown part classes', () => {
    const p = new ProblemCollector();
    parseLayoutResults('<results><layout><image>a</image><confidence>1</confidence><part><class>arm</class></part></layout></results>', 'l.xml', p);
    expect(p.problems.map((q) => [q.code, q.field])).toEqual([
      ['input/layout', 'layout[1].object'],
      ['input/layout-part', 'layout[1].part[1].class'],
    ]);
    const q = new ProblemCollector();
    parseLayoutResults('<results><layout></results>', 'bad.xml', q);
    expect(q.problems[0]).toMatchObject({ code: 'input/xml', file: 'bad.xml' });
  });
});
