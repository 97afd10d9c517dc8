/**
 * `@cvdevkit/report-html` is optional: the CLI evaluates without it (a light install), and loads it only for
 * `--format html`, `--plots`, `--images` crops and the compare page or its PNG diagram. Missing, it is a usage
 * error naming the package to add (exit 1), never a stack trace.
 */
import { DevkitError } from '@cvdevkit/core';
import { holdCompilerOff } from './optimising-compiler.js';

export type ReportHtml = typeof import('@cvdevkit/report-html');

export const REPORT_HTML_PACKAGE = '@cvdevkit/report-html';

let loaded: Promise<ReportHtml> | undefined;

/** The error for a feature that needs report-html when it is not installed. */
export function reportHtmlMissing(feature: string): DevkitError {
  return new DevkitError({
    kind: 'usage',
    code: 'usage/optional-package',
    message: `${feature} needs the package ${REPORT_HTML_PACKAGE}, which is not installed: npm install ${REPORT_HTML_PACKAGE} (next to @cvdevkit/cli, e.g. npm i -g ${REPORT_HTML_PACKAGE})`,
  });
}

function isMissing(e: unknown): boolean {
  const err = e as NodeJS.ErrnoException;
  return (err?.code === 'ERR_MODULE_NOT_FOUND' || err?.code === 'MODULE_NOT_FOUND') && String(err.message).includes(REPORT_HTML_PACKAGE);
}

/**
 * report-html, imported once; `feature` names what needs it (for the error). The CLI registers its drawing
 * hold here: V8's optimising compiler is off while charts are drawn (an application's choice, not the library's).
 */
export function loadReportHtml(feature: string): Promise<ReportHtml> {
  loaded ??= import('@cvdevkit/report-html').then((lib) => {
    lib.setDrawingHold(holdCompilerOff);
    return lib;
  });
  return loaded.catch((e: unknown) => {
    loaded = undefined;
    throw isMissing(e) ? reportHtmlMissing(feature) : e;
  });
}
