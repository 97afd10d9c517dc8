/**
 * Side outputs: things written next to the report that read only the finished Report (charts as SVG/PNG files,
 * for example). Each declares its own common options and runs after `eval`, `merge` and `demo` have their
 * reports. A new side output is one file exporting a `SideOutput` plus one line in `SIDE_OUTPUTS`.
 */
import type { Report } from '@cvdevkit/core';
import { defineCommonOption, type CommonOptionSpec } from '../common-options.js';
import { plotsSideOutput } from './plots.js';

export interface SideOutputContext {
  cwd: string;
  stderr: NodeJS.WritableStream;
  quiet: boolean;
  /** The run's cache directory (undefined with `--no-cache`). */
  cacheDir?: string;
}

export interface SideOutput {
  name: string;
  /** Its options, added to every report-printing command (scope `report`). */
  options: CommonOptionSpec[];
  /** Whether the parsed options ask for it. */
  wanted(opts: Record<string, unknown>): boolean;
  /** Runs before the report is formatted; may add to the report (for example chart specs under `charts`). */
  prepare?(report: Report, opts: Record<string, unknown>): void | Promise<void>;
  /** Writes the side output from the finished reports. */
  write(reports: Report[], opts: Record<string, unknown>, context: SideOutputContext): void | Promise<void>;
}

export const SIDE_OUTPUTS: readonly SideOutput[] = [plotsSideOutput];

for (const s of SIDE_OUTPUTS) for (const o of s.options) defineCommonOption(o);

/** The side outputs the options ask for. */
export function wantedSideOutputs(opts: Record<string, unknown>): SideOutput[] {
  return SIDE_OUTPUTS.filter((s) => s.wanted(opts));
}
