/**
 * `--plots <dir>`: each chart of each report as its own file, `<task>-<chart>.svg`, or `.png` with
 * `--plot-format png` (for papers). The chart specs are also added to the report under `charts`, so a
 * `--format json` report printed with `--plots` carries them (a notebook can re-render them).
 */
import { join, resolve } from 'node:path';
import { usageError, type Report } from '@cvdevkit/core';
import type { ReportChart } from '@cvdevkit/report-html';
import { describeFsError, makeDirsSync } from '@cvdevkit/formats/fs';
import { checkOutputFolder } from '../output/targets.js';
import { chartFile } from '../output/chart-file.js';
import { loadReportHtml } from '../report-html.js';
import type { SideOutput } from './index.js';

export const PLOT_FORMATS = ['svg', 'png'] as const;

type WithCharts = Report & { charts?: ReportChart[] };

function fileStem(report: Report, chart: ReportChart): string {
  return `${report.task.replace(/[^A-Za-z0-9._-]+/g, '-')}-${chart.id}`;
}

export const plotsSideOutput: SideOutput = {
  name: 'plots',
  options: [
    { flags: '--plots <dir>', description: 'write each chart as its own file into this directory (created if missing); adds the chart specs to the report under "charts"', scope: 'report' },
    { flags: '--plot-format <format>', description: 'file format of --plots: svg or png (default svg)', scope: 'report', make: (o) => o.choices([...PLOT_FORMATS]) },
  ],
  wanted: (opts) => typeof opts.plots === 'string',
  check: (opts, cwd) => checkOutputFolder(resolve(cwd, opts.plots as string), '--plots'),
  async prepare(report) {
    // loaded only when --plots is given: the chart library is the CLI's heaviest dependency
    const { buildReportCharts } = await loadReportHtml('--plots');
    const r = report as WithCharts;
    r.charts ??= buildReportCharts(report);
  },
  async write(reports, opts, context) {
    const lib = await loadReportHtml('--plots');
    lib.useChartCodeCache(context.cacheDir);
    const dir = resolve(context.cwd, opts.plots as string);
    try {
      makeDirsSync(dir); // never Node's recursive mkdir: it loops forever under /proc
    } catch (e) {
      throw usageError(`cannot create --plots ${dir}: ${describeFsError(e)}`, 'usage/plots');
    }
    const png = opts.plotFormat === 'png';
    const written: string[] = [];
    for (const report of reports as WithCharts[]) {
      const charts = report.charts ?? lib.buildReportCharts(report);
      const svgs = await lib.renderChartSvgs(charts.map((c) => c.spec));
      for (const [i, chart] of charts.entries()) {
        const svg = svgs[i];
        const file = join(dir, `${fileStem(report, chart)}.${png ? 'png' : 'svg'}`);
        context.outputs.stage(file, '--plots', await chartFile(lib, svg, png ? 'png' : 'svg'), { inFolder: true });
        written.push(file);
      }
    }
    return `${written.length} chart${written.length === 1 ? '' : 's'} written to ${dir}`;
  },
};
