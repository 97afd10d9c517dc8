/** What an output format is: a name, the file extensions that select it for `--out`, and how it renders reports. */
import type { Report } from '@cvdevkit/core';

export interface ReportFormatter {
  /** The `--format` value. */
  name: string;
  /** `--out` file extensions (with the dot, lower case) that select this format when `--format` is not given. */
  extensions: readonly string[];
  /** One report as text. */
  render(report: Report): string;
  /** Several reports (`cvdevkit demo`); default: each rendered, separated by a blank line. */
  renderMany?(reports: Report[]): string;
  /**
   * Writes one or several reports piece by piece (formats whose text can outgrow one string, such as JSON
   * with million-point curves); when absent the rendered text is written in one piece.
   */
  stream?(reports: Report[], write: (chunk: string) => void): void;
}
