import { describe, expect, it } from 'vitest';
import { createReport, defineMetric, definePlugin, defineTask, isDevkitError, type AnalysisRequest, type DatasetPlugin, type RunContext } from '@cvdevkit/core';
import type { LoadedPlugin } from './discover.js';
import { summarizePlugin } from './manifest.js';
import { createRegistry } from './registry.js';

const official = defineMetric({ name: 'count', description: 'lines', compute: (n: number) => n });
const other = defineMetric({ name: 'count-half', description: 'half the lines', compute: (n: number) => n / 2 });

/** A toy plugin whose hooks record the context they get and return what `results` says (default: a good value). */
function toyPlugin(results: Partial<Record<string, unknown>> = {}) {
  const seen: Record<string, RunContext & { options?: unknown }> = {};
  const report = (task: string) => createReport({ task, metric: 'count', summary: { n: 1 } });
  const request = (): AnalysisRequest => ({ kind: 'classification-size', classes: [], dataset: 'toy', task: 'toy/count', metric: 'count', versions: {} });
  const count = defineTask<{ input?: string; arrays?: boolean }>({
    id: 'toy/count',
    title: 'Toy',
    options: [
      { name: 'input', type: 'path', required: true, description: 'a file' },
      { name: 'arrays', type: 'boolean', default: false, description: 'arrays' },
    ],
    metric: 'count',
    metrics: [official, other, 'by-name'],
    evaluate: async (_o, c) => ((seen.evaluate = c), ('evaluate' in results ? results.evaluate : report('toy/count')) as never),
    validate: async (_o, c) => ((seen.validate = c), ('validate' in results ? results.validate : [{ severity: 'warning', code: 'task/log', message: 'x' }]) as never),
    analyze: async (_o, c) => ((seen.analyze = c), ('analyze' in results ? results.analyze : request()) as never),
    merge: async (_files, c) => ((seen.merge = c), ('merge' in results ? results.merge : report('toy/count')) as never),
    sample: async () => ('sample' in results ? results.sample : { input: '/tmp/x' }) as never,
  });
  const bare = defineTask({ id: 'toy/bare', title: 'Bare', options: [], metric: 'count', metrics: ['count'], evaluate: async () => report('toy/bare') });
  const plugin: DatasetPlugin = definePlugin({ meta: { name: 'toy', version: '0.1.0', title: 'Toy' }, tasks: { 'toy/count': count, 'toy/bare': bare } });
  const found: LoadedPlugin = { packageName: '@me/toy', version: '1.2.3', source: 'flag', entry: '/x/toy.js', summary: summarizePlugin(plugin), plugin, load: async () => found };
  return { registry: createRegistry({ plugins: [found], warnings: [], failures: [] }), seen };
}

async function rejection(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    if (isDevkitError(e)) return e;
    throw e;
  }
  throw new Error('expected a rejection');
}

describe('one path for every hook (registry.runHook)', () => {
  it('resolves the metric once: the official one by default, the asked one with its metric object', async () => {
    const { registry, seen } = toyPlugin();
    await registry.runHook('toy/count', 'evaluate', { input: 'a' });
    expect(seen.evaluate.metric).toBe('count');
    expect(seen.evaluate.metricPlugin).toBe(official);
    for (const hook of ['validate', 'analyze'] as const) {
      await registry.runHook('toy/count', hook, { input: 'a' }, { metric: 'count-half', cacheDir: '/c', workers: 3 });
      expect([seen[hook].metric, seen[hook].metricPlugin, seen[hook].cacheDir, seen[hook].workers]).toEqual(['count-half', other, '/c', 3]);
    }
    await registry.runHook('toy/count', 'merge', { files: ['a'] }, { metric: 'by-name' });
    expect([seen.merge.metric, seen.merge.metricPlugin]).toEqual(['by-name', undefined]);
    const prepared = registry.prepareHook('toy/count', 'evaluate', 'count-half');
    expect([prepared.metric, prepared.metricPlugin]).toEqual(['count-half', other]);
  });

  it('a metric the task does not accept is one usage error, before the hook runs, for every hook', async () => {
    const { registry, seen } = toyPlugin();
    for (const hook of ['evaluate', 'validate', 'analyze', 'merge', 'sample'] as const) {
      const e = await rejection(registry.runHook('toy/count', hook, (hook === 'merge' ? { files: [] } : hook === 'sample' ? '/tmp' : {}) as never, { metric: 'nope' }));
      expect([e.kind, e.code, e.message]).toEqual(['usage', 'usage/unknown-metric', 'task "toy/count" does not accept --metric nope; accepted: count, count-half, by-name']);
    }
    expect(Object.keys(seen)).toEqual([]);
  });

  it('a task without the hook is a usage error naming the tasks that have it', async () => {
    const { registry } = toyPlugin();
    const e = await rejection(registry.runHook('toy/bare', 'merge', { files: ['a'] }));
    expect([e.code, e.message, e.problems[0]?.hint]).toEqual(['usage/no-merge', 'task "toy/bare" has no merge step (only tasks that can be sharded do)', 'tasks with a merge step: toy/count']);
    expect((await rejection(registry.runHook('toy/bare', 'analyze', {}))).code).toBe('usage/no-analysis');
    expect((await rejection(registry.runHook('toy/bare', 'validate', {}))).code).toBe('usage/no-validate');
    expect((await rejection(registry.runHook('toy/bare', 'sample', '/tmp'))).code).toBe('usage/no-sample');
  });

  it('stamps the plugin version and dataset on reports (evaluate, merge) and analysis requests', async () => {
    const { registry } = toyPlugin();
    for (const report of [await registry.runHook('toy/count', 'evaluate', {}), await registry.runHook('toy/count', 'merge', { files: ['a'] })]) {
      expect(report.versions['@me/toy']).toBe('1.2.3');
      expect(report.dataset).toBe('toy');
      expect([report.diagnostics, report.curves, report.matrices]).toEqual([[], [], {}]);
      expect(report.timings.totalMs).toBeGreaterThan(0);
    }
    const request = await registry.runHook('toy/count', 'analyze', {});
    expect(request.versions).toEqual({ '@me/toy': '1.2.3' });
  });

  it('merge gets the task options in its context (none when not given)', async () => {
    const { registry, seen } = toyPlugin();
    await registry.runHook('toy/count', 'merge', { files: ['a', 'b'], options: { arrays: true } });
    expect(seen.merge.options).toEqual({ arrays: true });
    await registry.runHook('toy/count', 'merge', { files: ['a'] });
    expect(seen.merge.options).toEqual({});
  });

  it("checks each hook's result: a wrong shape is a plugin contract error naming the plugin and the hook", async () => {
    const cases = [
      ['evaluate', {}, { summary: {}, task: 'toy/count' }, /tasks\["toy\/count"\]\.evaluate → rows: expected an array, found nothing/],
      ['merge', { files: ['a'] }, 'text', /tasks\["toy\/count"\]\.merge: expected to resolve to a Report, found "text"/],
      ['validate', {}, undefined, /\.validate: expected to resolve to an array of diagnostics \(empty when valid\), found nothing/],
      ['validate', {}, [{ severity: 'bad', message: 'x' }], /\.validate → \[0\]\.severity: expected "error", "warning" or "info"/],
      ['analyze', {}, { kind: 'other' }, /\.analyze → kind: expected "detection" or "classification-size"/],
      ['sample', '/tmp', null, /\.sample: expected to resolve to the options object that evaluates the sample, found null/],
    ] as const;
    for (const [hook, input, result, message] of cases) {
      const { registry } = toyPlugin({ [hook]: result });
      const e = await rejection(registry.runHook('toy/count', hook, input as never));
      expect([e.kind, e.code]).toEqual(['internal', 'plugin/contract']);
      expect(e.message).toMatch(/^plugin "@me\/toy" \(\/x\/toy\.js\): /);
      expect(e.message).toMatch(message);
    }
  });

  it('validate and sample results pass through unchanged', async () => {
    const { registry } = toyPlugin();
    expect(await registry.runHook('toy/count', 'validate', {})).toEqual([{ severity: 'warning', code: 'task/log', message: 'x' }]);
    expect(await registry.runHook('toy/count', 'sample', '/tmp')).toEqual({ input: '/tmp/x' });
  });
});
