/** `--format json`: exactly `reportToJson` (REPORT.md: NaN → null, full precision); several reports as an array. */
import { reportToJson } from '@cvdevkit/core';
import type { ReportFormatter } from './formatter.js';

export const jsonFormatter: ReportFormatter = {
  name: 'json',
  extensions: ['.json'],
  render: (report) => reportToJson(report) + '\n',
  renderMany: (reports) => '[\n' + reports.map((r) => reportToJson(r)).join(',\n') + '\n]\n',
};
