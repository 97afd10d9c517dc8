/**
 * Side outputs: things written next to the report that read only the finished Report (charts as SVG/PNG files,
 * for example). Each declares its own common options and runs after `eval`, `merge` and `demo` have their
 * reports. A new side output is one file exporting a `SideOutput` plus one line in `SIDE_OUTPUTS`.
 */
import type { Report } from '@cvdevkit/core';
import { defineCommonOption, type CommonOptionSpec } from '../common-options.js';
import type { OutputCommit } from '../output/targets.js';
import { plotsSideOutput } from './plots.js';

export interface SideOutputContext {
  cwd: string;
  stderr: NodeJS.WritableStream;
  quiet: boolean;
  /** The run's cache directory (undefined with `--no-cache`). */
  cacheDir?: string;
  /** Where the files are staged: committed with `--out` once everything is written. */
  outputs: OutputCommit;
}

export interface SideOutput {
  name: string;
  /** Its options, added to every report-printing command (scope `report`). */
  options: CommonOptionSpec[];
  /** Whether the parsed options ask for it. */
  wanted(opts: Record<string, unknown>): boolean;
  /** Runs before the report is formatted; may add to the report (for example chart specs under `charts`). */
  prepare?(report: Report, opts: Record<string, unknown>): void | Promise<void>;
  /** Checks its targets before any work (a usage error when they cannot be written). */
  check?(opts: Record<string, unknown>, cwd: string): void;
  /** Stages the side output's files from the finished reports (`context.outputs`); returns a line to print once committed. */
  write(reports: Report[], opts: Record<string, unknown>, context: SideOutputContext): void | string | Promise<void | string>;
}

export const SIDE_OUTPUTS: readonly SideOutput[] = [plotsSideOutput];

for (const s of SIDE_OUTPUTS) for (const o of s.options) defineCommonOption(o);

/** The side outputs the options ask for. */
export function wantedSideOutputs(opts: Record<string, unknown>): SideOutput[] {
  return SIDE_OUTPUTS.filter((s) => s.wanted(opts));
}
