import { describe, expect, it } from 'vitest';
import { renderVegaLiteSvg } from '../render-chart.js';
import { measureTextWidth } from '../text-width.js';
import { criticalDifferenceChart, type CriticalDifferenceData } from './critical-difference.js';

type Layer = { data: { values: Array<Record<string, number | string>> }; mark: { type: string; align?: string; fontSize?: number } };

const data: CriticalDifferenceData = {
  title: 'toy/det: mean rank over 20 classes (1 = best)',
  subtitle: 'Nemenyi test at α = 0.05',
  methods: ['a very long method name indeed', 'b', 'c', 'd', 'e'].map((name, i) => ({ name, rank: 1 + i * 0.8 })),
  cd: 1.36,
  groups: [
    ['a very long method name indeed', 'b'],
    ['c', 'd', 'e'],
  ],
};

describe('criticalDifferenceChart', () => {
  const chart = criticalDifferenceChart(data);
  const layers = chart.spec.layer as Layer[];
  const texts = layers.filter((l) => l.mark.type === 'text');
  const [, right, left] = texts;
  const lines = layers[0].data.values;

  it('labels each method once, the better half on the right, rows apart, inside the chart and clear of the axis', () => {
    expect(right.data.values.map((v) => v.text)).toEqual(['a very long method name indeed (1.00)', 'b (1.80)', 'c (2.60)']);
    expect(left.data.values.map((v) => v.text)).toEqual(['e (4.20)', 'd (3.40)']);
    const axis = lines[0] as { x: number; x2: number };
    for (const [side, dir] of [
      [right, 1],
      [left, -1],
    ] as const) {
      const ys = side.data.values.map((v) => v.y as number);
      for (let i = 1; i < ys.length; i++) expect(ys[i] - ys[i - 1]).toBeGreaterThanOrEqual(20);
      for (const v of side.data.values) {
        const w = measureTextWidth(String(v.text), side.mark.fontSize!);
        if (dir === 1) expect(v.x as number).toBeGreaterThan(axis.x2);
        else expect((v.x as number) - w).toBeGreaterThanOrEqual(0);
        if (dir === 1) expect((v.x as number) + w).toBeLessThanOrEqual(chart.spec.width as number);
        else expect(v.x as number).toBeLessThan(axis.x);
      }
    }
  });

  it('draws the ranks axis k…1, the CD bar and one thick bar per group', () => {
    expect(texts[0].data.values.map((v) => v.text)).toEqual(['1', '2', '3', '4', '5', 'CD = 1.36']);
    expect(layers[1].data.values).toHaveLength(2);
    expect(layers[1].data.values.every((b) => b.w === 4.5)).toBe(true);
    const ranks = texts[0].data.values.slice(0, 5).map((v) => v.x as number);
    expect(ranks).toEqual([...ranks].sort((a, b) => b - a)); // 1 at the right
  });

  it('renders through Vega-Lite without a warning; no CD bar when there is none', async () => {
    const warnings: string[] = [];
    const svg = await renderVegaLiteSvg(chart.spec, { onWarning: (m) => warnings.push(m) });
    expect(warnings).toEqual([]);
    expect(svg).toContain('a very long method name indeed (1.00)');
    const none = criticalDifferenceChart({ ...data, cd: null, groups: [] }).spec.layer as Layer[];
    expect(none[2].data.values.map((v) => v.text)).not.toContain('CD = 1.36');
    expect(none[1].data.values).toEqual([]);
  });
});
