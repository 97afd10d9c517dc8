import { describe, expect, it } from 'vitest';
import { createReport, type ReportAnalysis } from '@cvdevkit/core';
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
      } as unknown as ReportAnalysis,
    });
    const charts = buildReportCharts(report);
    const ids = charts.map((c) => c.id);
    expect(ids).toEqual(expect.arrayContaining(['ap-vs-overlap', 'ap-vs-size', 'hoiem-trend', 'tide-dap']));
    for (const c of charts.filter((x) => x.id.startsWith('ap-vs') || x.id === 'tide-dap')) expect(await renderVegaLiteSvg(c.spec)).toContain('<svg');
  });

  it("size under a NaN-propagating mean (ILSVRC): the task's mAP and, dashed, the mean over classes with positives", async () => {
    const report = createReport({
      task: 'ilsvrc2015/det',
      metric: 'ap-ilsvrc2015-det',
      rows: [{ key: 'n1', ap: 0.5 }],
      analysis: { size: { kind: 'detection', thresholds: [0, 0.1, 0.2], mAP: [0.5, NaN, NaN], mAPWithPositives: [0.5, 0.4, 0.3], classesWithPositives: [2, 2, 1], perClass: [{}, {}] } } as unknown as ReportAnalysis,
    });
    const chart = buildReportCharts(report).find((c) => c.id === 'ap-vs-size')!;
    const warnings: string[] = [];
    const svg = await renderVegaLiteSvg(chart.spec, { onWarning: (m) => warnings.push(m) });
    expect(warnings).toEqual([]);
    expect(svg).toContain('mean over the classes with a positive left');
  });

  it('Hoiem pies (overall, per class) and APN-per-bin charts render without a Vega warning; shares are labelled', async () => {
    const chars = (['size', 'height', 'aspect'] as const).map((ch) => ({
      characteristic: ch,
      bins: ch === 'aspect' ? ['XT', 'T', 'M', 'W', 'XW'] : ['XS', 'S', 'M', 'L', 'XL'],
      apn: [null, 0.05, 0.6, 0.7, 0.4],
      overall: 0.55,
      sensitivity: 0.65,
      impact: 0.15,
      perClass: [{ key: 'cat', apn: [null, 0.05, 0.6, 0.7, 0.4], objects: [1, 5, 9, 5, 5] }, { key: 'dog', apn: [null, null, 0.5, null, null], objects: [0, 1, 8, 2, 1] }],
    }));
    const report = createReport({
      task: 'voc2010/det',
      metric: 'ap-voc2010',
      rows: [{ key: 'cat', ap: 0.5 }, { key: 'dog', ap: 0.4 }],
      analysis: {
        hoiem: {
          trendCounts: [25],
          overall: { trend: [{ Loc: 1, Sim: 2, Oth: 3, BG: 4 }], top: { TP: 60, Loc: 25, Sim: 2, Oth: 3, BG: 10 } },
          perClass: [{ key: 'cat', npos: 50, top: { TP: 30, Loc: 15, Sim: 0, Oth: 0, BG: 5 } }, { key: 'dog', npos: 50, top: { TP: 30, Loc: 10, Sim: 2, Oth: 3, BG: 5 } }],
          characteristics: chars,
        },
      } as unknown as ReportAnalysis,
    });
    const charts = buildReportCharts(report).filter((c) => c.id.startsWith('hoiem'));
    expect(charts.map((c) => c.id)).toEqual(['hoiem-trend', 'hoiem-pie', 'hoiem-pie-per-class', 'hoiem-apn-bins', 'hoiem-sensitivity', 'hoiem-apn-per-class']);
    const warnings: string[] = [];
    const svgs = await Promise.all(charts.map((c) => renderVegaLiteSvg(c.spec, { onWarning: (m) => warnings.push(`${c.id}: ${m}`) })));
    expect(warnings).toEqual([]);
    expect(svgs[1]).toContain('Cor 60%');
    expect(svgs[1]).toContain('Sim (similar class) 2%');
    expect(svgs[2]).toContain('cat (60% Cor)');
    expect(svgs[3]).toContain('size: sensitivity 0.65, impact 0.15');
    expect(svgs[3]).toContain('n/a');
  });
});
