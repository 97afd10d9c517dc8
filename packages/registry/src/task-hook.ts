/**
 * The one path every task hook goes through (`evaluate`, `validate`, `analyze`, `merge`, `sample`): the hook is
 * looked up (a task without it is a usage error), the metric resolved once (the official one unless another is
 * asked for; one the task does not accept is a usage error), the RunContext built (progress, abort signal, workers,
 * cache, log, metric object, and for `merge` the task options), the hook called, its result's shape checked (a
 * plugin that returns something else breaks the contract: an internal error naming the plugin) and the plugin's
 * version stamped on what becomes a report.
 */
import {
  createRunContext,
  DevkitError,
  findMetric,
  metricNames,
  type AnalysisRequest,
  type AnalyzeOptionValues,
  type Diagnostic,
  type ErrorCode,
  type MergeContext,
  type MetricPlugin,
  type Report,
  type RunContext,
  type TaskOptionValues,
} from '@cvdevkit/core';
import { contractError } from './contract.js';
import type { RegisteredTask } from './registry.js';

/** What `merge` is called with: the shards' files and the task options given beside them. */
export interface MergeInput {
  files: readonly string[];
  /** The task's options (any subset); `context.options` of the hook. Default none. */
  options?: TaskOptionValues;
}

/** Per hook: what the caller passes beside the context, and what the hook returns (checked). */
export interface HookCalls {
  evaluate: { input: TaskOptionValues; result: Report };
  validate: { input: TaskOptionValues; result: Diagnostic[] };
  analyze: { input: TaskOptionValues & AnalyzeOptionValues; result: AnalysisRequest };
  merge: { input: MergeInput; result: Report };
  /** The input is the folder to write the sample in; the result, the options that evaluate it. */
  sample: { input: string; result: TaskOptionValues };
}

export type HookName = keyof HookCalls;

export const HOOK_NAMES: readonly HookName[] = ['evaluate', 'validate', 'analyze', 'merge', 'sample'];

/** A hook of one task, its metric resolved, ready to run (what `PluginRegistry.prepareHook` returns). */
export interface PreparedHook<H extends HookName> {
  entry: RegisteredTask;
  hook: H;
  /** The metric the run computes: the one asked for, else the task's official metric. */
  metric: string;
  /** The task's metric object of that name (absent for a metric the task lists by name only). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  metricPlugin: MetricPlugin<any, any> | undefined;
  /**
   * Builds the RunContext from `context` (its `metric` is the resolved one), calls the hook, checks its result and
   * stamps it: a report gets the plugin's version, its dataset and the empty lists it left out (and its total
   * time); an analysis request its plugin's version and dataset.
   */
  call(input: HookCalls[H]['input'], context?: Partial<RunContext>): Promise<HookCalls[H]['result']>;
}

/** The usage error for a task without the hook; `withHook` lists the installed tasks that have it. */
function missingHook(id: string, hook: HookName, withHook: (hook: HookName) => string): DevkitError {
  const usage = (message: string, code: ErrorCode, hint?: string) => new DevkitError({ kind: 'usage', code, field: 'task', message, hint });
  switch (hook) {
    case 'validate':
      return usage(`task "${id}" has no validate step (try cvdevkit eval ${id})`, 'usage/no-validate');
    case 'analyze':
      return usage(`task "${id}" has no analysis`, 'usage/no-analysis', `tasks with an analysis: ${withHook('analyze')}`);
    case 'merge':
      return usage(`task "${id}" has no merge step (only tasks that can be sharded do)`, 'usage/no-merge', `tasks with a merge step: ${withHook('merge')}`);
    case 'sample':
      return usage(`task "${id}" has no embedded sample`, 'usage/no-sample');
    default:
      return contractError(`"${id}"`, `tasks[${JSON.stringify(id)}].${hook}`, 'a function', undefined);
  }
}

/** The metric a run computes: `asked` when the task accepts it (a usage error otherwise), else the official one. */
export function resolveMetric(entry: RegisteredTask, asked: string | undefined): { metric: string; metricPlugin: MetricPlugin<unknown, unknown> | undefined } {
  const metric = asked ?? entry.task.metric;
  const accepted = metricNames(entry.task);
  if (!accepted.includes(metric))
    throw new DevkitError({
      kind: 'usage',
      code: 'usage/unknown-metric',
      field: 'metric',
      message: `task "${entry.id}" does not accept --metric ${metric}; accepted: ${accepted.join(', ')}`,
    });
  return { metric, metricPlugin: findMetric(entry.task, metric) };
}

const label = (entry: RegisteredTask) => `${JSON.stringify(entry.plugin.packageName)} (${entry.plugin.entry})`;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function checkReport(value: unknown, entry: RegisteredTask, hook: HookName): asserts value is Report {
  const at = `tasks[${JSON.stringify(entry.id)}].${hook}`;
  if (!isObject(value)) throw contractError(label(entry), at, 'to resolve to a Report', value);
  if (!isObject(value.summary)) throw contractError(label(entry), `${at} → summary`, 'an object', value.summary);
  if (!Array.isArray(value.rows)) throw contractError(label(entry), `${at} → rows`, 'an array', value.rows);
  if (typeof value.task !== 'string') throw contractError(label(entry), `${at} → task`, 'a string', value.task);
}

const SEVERITIES = new Set(['error', 'warning', 'info']);

function checkDiagnostics(value: unknown, entry: RegisteredTask): asserts value is Diagnostic[] {
  const at = `tasks[${JSON.stringify(entry.id)}].validate`;
  if (!Array.isArray(value)) throw contractError(label(entry), at, 'to resolve to an array of diagnostics (empty when valid)', value);
  value.forEach((d: unknown, i) => {
    if (!isObject(d)) throw contractError(label(entry), `${at} → [${i}]`, 'a diagnostic object', d);
    if (typeof d.severity !== 'string' || !SEVERITIES.has(d.severity)) throw contractError(label(entry), `${at} → [${i}].severity`, '"error", "warning" or "info"', d.severity);
    if (typeof d.message !== 'string') throw contractError(label(entry), `${at} → [${i}].message`, 'a string', d.message);
  });
}

function checkAnalysisRequest(value: unknown, entry: RegisteredTask): asserts value is AnalysisRequest {
  const at = `tasks[${JSON.stringify(entry.id)}].analyze`;
  if (!isObject(value)) throw contractError(label(entry), at, 'to resolve to an AnalysisRequest', value);
  if (value.kind !== 'detection' && value.kind !== 'classification-size') throw contractError(label(entry), `${at} → kind`, '"detection" or "classification-size"', value.kind);
  if (value.kind === 'detection' && !isObject(value.input)) throw contractError(label(entry), `${at} → input`, 'an object (the diagnosis input)', value.input);
  if (value.kind === 'classification-size' && !Array.isArray(value.classes)) throw contractError(label(entry), `${at} → classes`, 'an array', value.classes);
  if (typeof value.task !== 'string') throw contractError(label(entry), `${at} → task`, 'a string', value.task);
  if (typeof value.metric !== 'string') throw contractError(label(entry), `${at} → metric`, 'a string', value.metric);
  if (value.versions !== undefined && !isObject(value.versions)) throw contractError(label(entry), `${at} → versions`, 'an object', value.versions);
}

function checkSampleOptions(value: unknown, entry: RegisteredTask): asserts value is TaskOptionValues {
  if (!isObject(value)) throw contractError(label(entry), `tasks[${JSON.stringify(entry.id)}].sample`, 'to resolve to the options object that evaluates the sample', value);
}

/** The report's defaults and the plugin's version and dataset (a value the plugin set is kept). */
function stampReport(report: Report, entry: RegisteredTask, started: number): Report {
  report.versions ??= {};
  report.versions[entry.plugin.packageName] ??= entry.plugin.version;
  report.diagnostics ??= [];
  report.curves ??= [];
  report.matrices ??= {};
  report.timings ??= { totalMs: 0 };
  if (!report.timings.totalMs) report.timings.totalMs = performance.now() - started;
  if (report.dataset === undefined) report.dataset = entry.plugin.plugin.meta.name;
  return report;
}

/** The hook `hook` of a loaded task, its metric resolved (see `PreparedHook`); `withHook` names the tasks that have it. */
export function prepareTaskHook<H extends HookName>(entry: RegisteredTask, hook: H, metric: string | undefined, withHook: (hook: HookName) => string): PreparedHook<H> {
  const fn = (entry.task as unknown as Record<string, unknown>)[hook];
  if (typeof fn !== 'function') throw missingHook(entry.id, hook, withHook);
  const resolved = resolveMetric(entry, metric);
  const task = entry.task;
  const call = async (input: unknown, context: Partial<RunContext> = {}): Promise<unknown> => {
    const ctx = createRunContext({ ...context, metric: resolved.metric, metricPlugin: resolved.metricPlugin });
    const started = performance.now();
    switch (hook) {
      case 'evaluate': {
        const report: unknown = await task.evaluate(input as TaskOptionValues, ctx);
        checkReport(report, entry, hook);
        return stampReport(report, entry, started);
      }
      case 'merge': {
        const { files, options = {} } = input as MergeInput;
        const mergeContext: MergeContext = { ...ctx, options: { ...options } };
        const report: unknown = await task.merge!(files, mergeContext);
        checkReport(report, entry, hook);
        return stampReport(report, entry, started);
      }
      case 'validate': {
        const found: unknown = await task.validate!(input as TaskOptionValues, ctx);
        checkDiagnostics(found, entry);
        return found;
      }
      case 'analyze': {
        const request: unknown = await task.analyze!(input as TaskOptionValues & AnalyzeOptionValues, ctx);
        checkAnalysisRequest(request, entry);
        request.versions ??= {};
        request.versions[entry.plugin.packageName] ??= entry.plugin.version;
        request.dataset ??= entry.plugin.plugin.meta.name;
        return request;
      }
      case 'sample': {
        const values: unknown = await task.sample!(input as string);
        checkSampleOptions(values, entry);
        return values;
      }
    }
  };
  return { entry, hook, metric: resolved.metric, metricPlugin: resolved.metricPlugin, call: call as PreparedHook<H>['call'] };
}
