export { run, prescan, EXIT, type CliIo } from './main.js';
export { renderReport, renderReports, formatNumber, formatCell, formatDiagnostic, REPORT_FORMATS, type ReportFormat } from './render.js';
export { kebabCase, parseNumberArg, parseIntegerArg, commanderOption } from './options.js';
export { createProgressBar, type ProgressBar } from './progress.js';
