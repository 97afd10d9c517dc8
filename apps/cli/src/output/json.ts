/** `--format json`: exactly `reportToJson` (REPORT.md: NaN → null, full precision); several reports as an array. */
import { reportToJson } from '@cvdevkit/core';
import type { ReportFormatter } from './formatter.js';
import { writeJson } from './json-stream.js';

export const jsonFormatter: ReportFormatter = {
  name: 'json',
  extensions: ['.json'],
  render: (report) => reportToJson(report) + '\n',
  // `cvdevkit.compare/1`, NaN and ±Infinity as null like a report
  renderComparison: async (result) => (await import('@cvdevkit/analysis')).compareToJson(result),
  renderMany: (reports) => '[\n' + reports.map((r) => reportToJson(r)).join(',\n') + '\n]\n',
  // The same text as render / renderMany, written in pieces (a 10 M-detection report is longer than a string can be).
  stream(reports, write) {
    if (reports.length === 1) writeJson(reports[0], write);
    else {
      write('[\n');
      reports.forEach((r, i) => {
        if (i > 0) write(',\n');
        writeJson(r, write);
      });
      write('\n]');
    }
    write('\n');
  },
};
