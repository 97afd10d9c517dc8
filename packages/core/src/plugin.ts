import type { Report } from './report.js';
import type { Diagnostic } from './report.js';
import type { RunContext } from './context.js';
import type { PerImageStatistics, Replicator } from './per-image.js';
import type { AnalysisRequest } from './detection-diagnosis.js';

/** What a task's `merge` hook gets: the run context and the task options given to `cvdevkit merge`. */
export interface MergeContext<O extends object = TaskOptionValues> extends RunContext {
  /**
   * The task's options as given on the `cvdevkit merge` command line: any subset (none is required there), the
   * declared defaults applied, paths resolved. The registry always sets it (empty when none are given); a caller
   * that runs the hook directly may leave it out, so read it as `context.options?.name`.
   */
  options?: Partial<O>;
}

/** The type of a task option; the CLI parses argv strings into these. */
export type OptionType = 'string' | 'path' | 'number' | 'integer' | 'boolean';

export interface OptionSpec<N extends string = string> {
  /** Property name in the options object (camelCase); the CLI flag is its kebab-case (`--exclude-generated`). */
  name: N;
  type: OptionType;
  description: string;
  required?: boolean;
  default?: string | number | boolean;
  /** Allowed values (for string options). */
  choices?: readonly string[];
}

export type TaskOptionValues = Record<string, string | number | boolean | undefined>;

/** The option names of an options type `O` (its string keys). */
export type OptionName<O> = Extract<keyof O, string>;

/** The options `cvdevkit analyze` adds to a task's own options. */
export interface AnalyzeOptionValues {
  /** Comma-separated sections (`overlap,size,hoiem,tide,top,confusion,f1`); default all the task supports. */
  only?: string;
  /** `official` (default: the task's AP and matching) or `tide` (TIDE v1.0.1's own numbers). */
  tideMode?: string;
  /** Entries per list in the `top` section. */
  top?: number;
  /** The `confusion` section's score threshold (detections with a score ≥ it; default 0.25). */
  conf?: number;
  /** Folder of the test images (crops in the HTML report). */
  images?: string;
}

/**
 * A task: one evaluation of one benchmark (for example `voc2010/det`).
 * `O` is the options object the task accepts (keys = OptionSpec names).
 */
export interface TaskDefinition<O extends object = TaskOptionValues> {
  /** Full id, `<dataset>/<task>`; the key it is registered under. */
  id: string;
  title: string;
  description?: string;
  /** The task's inputs: one spec per key of `O` (a spec whose name is not a key of `O` does not compile). */
  options: readonly OptionSpec<OptionName<O>>[];
  /** The official metric's name (used when the user gives no `--metric`). */
  metric: string;
  /**
   * Every metric the task accepts, the official one included: metric objects (preferred; the registry resolves
   * `--metric` to the object and hands it to `evaluate` as `context.metricPlugin`), or bare names of metrics the
   * task computes itself.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  metrics: readonly (MetricPlugin<any, any> | string)[];
  /** Scores a submission. Throws DevkitError (kind `input`) for bad input. */
  evaluate(options: O, context: RunContext): Promise<Report>;
  /** Checks a submission's files without scoring; returns every problem found (empty when valid). */
  validate?(options: O, context: RunContext): Promise<Diagnostic[]>;
  /**
   * Combines partial results (the files written by sharded runs of this task) into the report of the whole
   * evaluation: what `cvdevkit merge <task> <files…> [task options]` runs. `context.options` holds the task's
   * options given on that command line (none is required there; declared defaults applied; paths resolved), for
   * the options that shape the merged report (for example an option that adds arrays to it). Tasks that cannot
   * be sharded leave it out.
   */
  merge?(files: readonly string[], context: MergeContext<O>): Promise<Report>;
  /**
   * Prepares a diagnosis (`cvdevkit analyze <task>`): reads the inputs with the task's own readers and returns
   * the matching records and metadata (`AnalysisRequest`); the CLI runs the diagnosis (`@cvdevkit/analysis`) on
   * them and prints its report. Optional.
   */
  analyze?(options: O & AnalyzeOptionValues, context: RunContext): Promise<AnalysisRequest>;
  /** Writes an embedded sample under `dir` and returns the options that evaluate it. */
  sample?(dir: string): Promise<O>;
  /** The charts of the task's HTML report and `--plots`, from report-html's generic kinds (none when absent). */
  charts?: readonly ChartRequest[];
  /**
   * `false`: the task's run needs no optimising compiler, because its hot loops are WebAssembly kernels (compiled
   * before they run by Liftoff, V8's baseline WebAssembly compiler). The CLI then leaves V8's optimising compiler
   * (TurboFan) off for the run, as it is during start-up, and WebAssembly on Liftoff: that compiler's code, compile
   * zones and threads are ~5 MiB of a light run's peak memory. What the kernels leave to JavaScript then runs in
   * V8's baseline tiers, several times slower than optimised: say `false` only where that code is light. Absent
   * (or true): the run has the optimising compiler. A hint to the CLI; a program that runs the task as a library
   * keeps its own settings.
   */
  optimisingCompiler?: boolean;
  /**
   * The replicator of the per-image statistics this task stores in `report.extra.perImage` (what
   * `cvdevkit compare --bootstrap` runs): recomputes the task's per-class metric on a replicate of the test
   * images. Throws DevkitError (kind `input`) when `stats` is not a layout the task wrote. Optional: a task
   * without it cannot be bootstrapped.
   */
  replicate?(stats: PerImageStatistics): Promise<Replicator>;
}

/**
 * A chart a task asks the HTML report and `--plots` for: one of report-html's generic kinds, named for what it
 * draws, reading the report's data (never the task's name):
 * - `pr-curves`: precision–recall curves of `report.curves` (`recall`, `precision`), per-class AP bars (`rows[].ap`)
 *   and, for many classes, the AP distribution; `curve` names another curve field to draw as the precision, `ap`
 *   another row field to name as the AP, `label` what tells this set apart (in the titles and chart ids: a task
 *   may declare several sets), `bars: false` leaves out the AP bars and distribution;
 * - `class-bars`: one bar per row of `rows[].<field>`, sorted, with a dashed rule at `summary[summaryKey]` (values
 *   outside 0–1, such as a −1 "no value", are left out; `summaryLabel` names the rule, default the key);
 * - `confusion-matrix`: a heat map of `report.matrices[matrix]` (every matrix when `matrix` is not given);
 * - `f-threshold`: precision–recall points per threshold with iso-F contours, the mean over classes and per
 *   class (`curves[].recall/precision`, `rows[].odsF`), and F-ODS bars;
 * - `error-by-cutoff`: error rates (`rows[].clsError`, `rows[].locError`) against the row's cut-off (its numeric key).
 */
export type ChartRequest =
  | { kind: 'pr-curves'; curve?: string; ap?: string; label?: string; bars?: boolean }
  | { kind: 'class-bars'; field: string; label?: string; summaryKey?: string; summaryLabel?: string; axisTitle?: string }
  | { kind: 'confusion-matrix'; matrix?: string }
  | { kind: 'f-threshold' }
  | { kind: 'error-by-cutoff' };

/** The chart kinds report-html draws. */
export const CHART_KINDS = ['pr-curves', 'class-bars', 'confusion-matrix', 'f-threshold', 'error-by-cutoff'] as const satisfies readonly ChartRequest['kind'][];

/** A metric plugin: a named computation over a typed input. */
export interface MetricPlugin<I = unknown, R = number> {
  name: string;
  description: string;
  compute(input: I): R;
  /**
   * What the metric changes in the protocol of the task that runs it, for the task to read (for example
   * `{ countDifficult: true }`: difficult objects count as positives). Absent: the task's official protocol.
   */
  protocol?: Readonly<Record<string, string | number | boolean>>;
}

/** The names of the metrics a task accepts, in its order. */
export function metricNames(task: Pick<TaskDefinition<object>, 'metrics'>): string[] {
  return task.metrics.map((m) => (typeof m === 'string' ? m : m.name));
}

/** The metric object a task lists under `name`, or undefined (unknown, or listed by name only). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function findMetric(task: Pick<TaskDefinition<object>, 'metrics'>, name: string): MetricPlugin<any, any> | undefined {
  for (const m of task.metrics) if (typeof m !== 'string' && m.name === name) return m;
  return undefined;
}

export interface DatasetMeta {
  /** Short dataset name, for example `voc2010` or `ilsvrc2015`. */
  name: string;
  /** The plugin package's version. */
  version: string;
  title: string;
  /** The package name, for report `versions`. */
  packageName?: string;
  homepage?: string;
}

/** What a plugin package default-exports. */
export interface DatasetPlugin {
  meta: DatasetMeta;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  tasks: Record<string, TaskDefinition<any>>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  metrics?: readonly MetricPlugin<any, any>[];
  /**
   * The diagnostic codes the plugin raises beyond core's `ERROR_CODES`: code (`<area>/<kebab-name>`) → one-line
   * meaning. Declare the same keys to the compiler by augmenting `PluginErrorCodes` (see `codes.ts`).
   */
  codes?: Readonly<Record<string, string>>;
}

/**
 * Typed registry, filled by module augmentation in each plugin:
 * ```ts
 * declare module '@cvdevkit/core' { interface TaskRegistry { 'voc2010/det': VocDetOptions } }
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface TaskRegistry {}

export type TaskId = keyof TaskRegistry & string;
export type TaskOptionsOf<K extends TaskId> = TaskRegistry[K];

/** Identity helpers that give plugin authors type checking without classes. */
export function defineTask<O extends object>(task: TaskDefinition<O>): TaskDefinition<O> {
  return task;
}
export function definePlugin<P extends DatasetPlugin>(plugin: P): P {
  return plugin;
}
export function defineMetric<I, R>(metric: MetricPlugin<I, R>): MetricPlugin<I, R> {
  return metric;
}
