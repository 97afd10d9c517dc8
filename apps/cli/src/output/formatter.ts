/** What an output format is: a name, the file extensions that select it for `--out`, and how it renders reports. */
import type { CompareResult } from '@cvdevkit/analysis';
import type { Report } from '@cvdevkit/core';

/** What a formatter may know about the runs beyond their reports (the HTML page's protocol fingerprint). */
export interface FormatContext {
  /** Per report, in the same order: the task option values the run used (paths resolved). */
  taskOptions?: Array<Record<string, unknown> | undefined>;
  /** The command line, as typed after `cvdevkit`. */
  argv?: readonly string[];
  /** The run's cache directory (undefined with `--no-cache`): HTML keeps V8's compiled chart code there. */
  cacheDir?: string;
  /** Where the inputs were, when the protocol's paths no longer exist (`demo` without `--dir`). */
  inputsNote?: string;
}

export interface ReportFormatter {
  /** The `--format` value. */
  name: string;
  /** `--out` file extensions (with the dot, lower case) that select this format when `--format` is not given. */
  extensions: readonly string[];
  /** One report as text (a promise for formats that render charts). */
  render(report: Report, context?: FormatContext): string | Promise<string>;
  /** Several reports (`cvdevkit demo`); default: each rendered, separated by a blank line. */
  renderMany?(reports: Report[], context?: FormatContext): string | Promise<string>;
  /**
   * Writes one or several reports piece by piece (formats whose text can outgrow one string, such as JSON
   * with million-point curves); when absent the rendered text is written in one piece.
   */
  stream?(reports: Report[], write: (chunk: string) => void): void;
  /**
   * A comparison of submissions (`cvdevkit compare`), with the same escaping as a report; `compare --format` offers
   * the formats that have it.
   */
  renderComparison?(result: CompareResult, context?: FormatContext): Promise<string>;
}
