import { describe, expect, it } from 'vitest';
import { createReport } from '@cvdevkit/core';
import { precisionRecallCharts } from './precision-recall.js';

describe('sorted charts', () => {
  it('break AP ties in the bars by name', () => {
    const report = createReport({ task: 'x/det', metric: 'ap', rows: ['cow', 'bird', 'ant'].map((key) => ({ key, ap: key === 'ant' ? 0.1 : 0.5 })) });
    const bars = precisionRecallCharts(report).find((c) => c.id === 'ap-per-class')!;
    const values = ((bars.spec.layer as Array<{ data: { values: Array<{ name: string }> } }>)[0].data.values).map((v) => v.name);
    expect(values).toEqual(['bird', 'cow', 'ant']);
  });
});
