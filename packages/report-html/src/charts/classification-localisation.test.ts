import { createReport } from '@cvdevkit/core';
import { describe, expect, it } from 'vitest';
import { renderVegaLiteSvg } from '../render-chart.js';
import { HEIGHT, LABEL_HEIGHT, errorByGuessesCharts, placeErrorLabels } from './classification-localisation.js';

const CLS = 'classification error';
const LOC = 'localisation error';

/** Why the two labels overlap or leave the plot (pixels), or undefined when they are apart and inside. */
function problem(cls: number, loc: number): string | undefined {
  const labels = placeErrorLabels([{ what: CLS, error: cls }, { what: LOC, error: loc }], 1);
  const [a, b] = labels.map((l) => l.at * HEIGHT);
  if (Math.abs(a - b) < LABEL_HEIGHT) return `cls ${cls}, loc ${loc}: labels at ${a} and ${b} px overlap`;
  if (Math.min(a, b) < 0 || Math.max(a, b) + LABEL_HEIGHT > HEIGHT) return `cls ${cls}, loc ${loc}: a label leaves the plot (${a}, ${b} px)`;
  return undefined;
}

describe('placeErrorLabels', () => {
  it('two labels never overlap and stay in the plot, for every pair of errors on a 0.005 grid (equal, close, near 0 and 1)', () => {
    const problems: string[] = [];
    const check = (c: number, l: number) => {
      const p = problem(c, l);
      if (p !== undefined) problems.push(p);
    };
    for (let i = 0; i <= 200; i++) for (let j = 0; j <= 200; j++) check(i / 200, j / 200);
    for (const [c, l] of [[0.3, 0.3], [0.3, 0.301], [0.301, 0.3], [0, 0], [1, 1], [0.999, 1], [0, 0.02], [0.98, 1]]) check(c, l);
    expect(problems).toEqual([]);
  });

  it('the higher error above its point and the lower below, when there is room', () => {
    const [lo, hi] = placeErrorLabels([{ what: CLS, error: 0.3 }, { what: LOC, error: 0.31 }], 2);
    expect(lo).toMatchObject({ what: CLS, guesses: 2 });
    expect(lo.at).toBeLessThan(0.3);
    expect(hi).toMatchObject({ what: LOC });
    expect(hi.at).toBeGreaterThan(0.31);
  });

  it('one series: its label above its point, or below it at the top of the plot', () => {
    expect(placeErrorLabels([{ what: CLS, error: 0.5 }], 1)[0].at).toBeGreaterThan(0.5);
    expect(placeErrorLabels([{ what: CLS, error: 1 }], 1)[0].at).toBeLessThan(1);
  });
});

describe('errorByGuessesCharts', () => {
  it('close errors: the spec places the two labels of each number of guesses apart; drawn without a Vega warning', async () => {
    const report = createReport({
      task: 'x/clsloc',
      metric: 'err',
      summary: { clsError: 0.3, locError: 0.302 },
      rows: [1, 2, 3, 4, 5].map((k) => ({ key: String(k), clsError: 0.3, locError: 0.3 + k / 1000 })),
    });
    const [chart] = errorByGuessesCharts(report);
    const values = (chart.spec as { data: { values: Array<{ kind: string; guesses: number; at: number; label: string }> } }).data.values;
    const labels = values.filter((v) => v.kind === 'label');
    expect(labels).toHaveLength(10);
    for (let k = 1; k <= 5; k++) {
      const [a, b] = labels.filter((l) => l.guesses === k);
      expect(Math.abs(a.at - b.at) * HEIGHT).toBeGreaterThanOrEqual(LABEL_HEIGHT);
    }
    const warnings: string[] = [];
    const svg = await renderVegaLiteSvg(chart.spec, { onWarning: (m) => warnings.push(m) });
    expect(warnings).toEqual([]);
    expect(svg).toContain('0.305');
    // the error axis keeps its title (the labels share its scale)
    expect(svg).toContain('Error rate (fraction of images, 0–1)');
  });
});
