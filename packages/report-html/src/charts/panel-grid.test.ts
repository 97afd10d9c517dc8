import { describe, expect, it } from 'vitest';
import { renderVegaLiteSvg } from '../render-chart.js';
import { chartSpec, type VegaLiteSpec } from './common.js';
import { lineBreak, panelGrid } from './panel-grid.js';

const options = { columns: 4, size: 100, xTitle: 'Recall (0–1)', yTitle: 'Precision (0–1)' };

describe('panelGrid', () => {
  it('sizes the view to its panels; y labels on the first panel of each row, x labels under the last panel of each column', () => {
    const grid = panelGrid(['a', 'b', 'c', 'd', 'e'], options);
    // 4 columns of 100 px, 28 px apart; 2 rows of a 22 px title and 100 px, 10 px apart
    expect(grid.body).toMatchObject({ width: 3 * 128 + 100, height: 132 + 122 });
    const labels = grid.values.filter((v) => v.kind === 'label');
    // the tick labels: left of a and e (r < 0), under b, c, d (nothing below them) and e (p = 0)
    expect(labels.filter((v) => v.angle === 0 && (v.r as number) < 0).map((v) => v.n)).toEqual([0, 0, 0, 4, 4, 4]);
    expect(labels.filter((v) => v.angle === 0 && (v.r as number) >= 0).map((v) => v.n)).toEqual([1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4]);
    expect(labels.filter((v) => v.angle === 270).map((v) => v.n)).toEqual([0, 4]);
    expect(grid.values.filter((v) => v.kind === 'panel').map((v) => v.title)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('one panel: no wider than the panel', () => {
    expect(panelGrid(['a'], options).body).toMatchObject({ width: 100, height: 122 });
  });

  it('places each datum in its panel, and one line mark breaks between panels', async () => {
    const grid = panelGrid(['a', 'b'], options);
    const values: VegaLiteSpec[] = [...grid.values];
    // a: from (r 0, p 1) to (1, 0); b: from (0, 0.5) to (0.5, 0.5)
    values.push(lineBreak('curve', 0), { kind: 'curve', n: 0, r: 0, p: 1 }, { kind: 'curve', n: 0, r: 1, p: 0 });
    values.push(lineBreak('curve', 1), { kind: 'curve', n: 1, r: 0, p: 0.5 }, { kind: 'curve', n: 1, r: 0.5, p: 0.5 });
    const spec = chartSpec('t', undefined, {
      ...grid.body,
      data: { values },
      layer: [...grid.layers, { transform: [{ filter: "datum.kind === 'curve'" }], mark: { type: 'line', ...grid.line, aria: false }, encoding: { x: grid.x, y: grid.y, order: { value: null } } }],
    });
    const warnings: string[] = [];
    const svg = await renderVegaLiteSvg(spec, { onWarning: (w) => warnings.push(w) });
    expect(warnings).toEqual([]);
    // one path, two pieces: panel a spans x 0–100 and y 22–122, panel b starts at x 128
    expect(svg).toContain('<path d="M0,22L100,122M128,72L178,72"');
    for (const text of ['a', 'b', '0.0', '0.5', '1.0', 'Recall (0–1)', 'Precision (0–1)']) expect(svg).toContain(`>${text}</text>`);
  });
});
