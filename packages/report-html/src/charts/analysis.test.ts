import { describe, expect, it } from 'vitest';
import { createReport } from '@cvdevkit/core';
import { buildReportCharts } from './index.js';
import { renderVegaLiteSvg } from '../render-chart.js';

describe('analysis charts', () => {
  it('an analyze report gets AP vs IoU, AP vs size, the Hoiem trend and the TIDE bars, and they render', async () => {
    const report = createReport({
      task: 'voc2010/det',
      metric: 'ap-voc2010',
      rows: [{ key: 'cat', ap: 0.5 }],
      analysis: {
        overlap: { thresholds: [0.1, 0.5, 0.9], mAP: [0.7, 0.5, NaN] },
        size: { kind: 'detection', thresholds: [0, 0.1], mAP: [0.5, 0.6] },
        hoiem: { trendCounts: [25, 50], overall: { trend: [{ Loc: 1, Sim: 2, Oth: 3, BG: 4 }, { Loc: 0, Sim: 0, Oth: 0, BG: 0 }] } },
        tide: { mode: 'official', units: 'fraction', main: { Cls: 0.1, Loc: 0.2, Both: 0, Dupe: 0, Bkg: 0, Miss: 0.1 }, special: { FalsePos: 0.2, FalseNeg: 0.3 } },
      },
    });
    const charts = buildReportCharts(report);
    const ids = charts.map((c) => c.id);
    expect(ids).toEqual(expect.arrayContaining(['ap-vs-overlap', 'ap-vs-size', 'hoiem-trend', 'tide-dap']));
    for (const c of charts.filter((x) => x.id.startsWith('ap-vs') || x.id === 'tide-dap')) expect(await renderVegaLiteSvg(c.spec)).toContain('<svg');
  });
});
