export { run, prescan, EXIT, type CliIo } from './main.js';
export { renderReports, formatReports, FORMATTERS, REPORT_FORMATS, formatForFile, type ReportFormatter, type FormatContext } from './output/index.js';
export { formatNumber, formatCell } from './output/text.js';
export { formatDiagnostic } from './output/diagnostic.js';
export { kebabCase, parseNumberArg, parseIntegerArg, commanderOption } from './options.js';
export { createProgressBar, type ProgressBar } from './progress.js';
export { SIDE_OUTPUTS, type SideOutput, type SideOutputContext } from './side-outputs/index.js';
export { defineCommonOption, type CommonOptionSpec } from './common-options.js';
