import { describe, expect, it } from 'vitest';
import { createReport } from '@cvdevkit/core';
import { classBars } from './segmentation.js';

describe('class bars', () => {
  it('leave out values outside 0–1 (a −1 "no value") and say so; summaryLabel names the rule', () => {
    const report = createReport({ task: 'x/det', metric: 'ap', summary: { APs: 0.5 }, rows: [{ key: 'a', APs: 0.4 }, { key: 'b', APs: 0.6 }, { key: 'c', APs: -1 }, { key: 'd', APs: NaN }] });
    const [chart] = classBars(report, { kind: 'class-bars', field: 'APs', label: 'AP small', summaryKey: 'APs', summaryLabel: 'all categories (APs)' });
    const layers = chart.spec.layer as Array<{ data: { values: Array<{ name?: string; label: string }> } }>;
    expect(layers[0].data.values.map((v) => v.name)).toEqual(['b', 'a']);
    expect(layers[1].data.values[0].label).toBe('all categories (APs) 0.500');
    expect(chart.description).toContain('2 of 4 rows have no AP small');
  });
});
