/**
 * Plugin manifests: what `cvdevkit list` shows about a plugin, read from a JSON file next to its code, so
 * that discovery does not import any plugin. A plugin's build writes it from the plugin object
 * (`writePluginManifest`, run by `scripts/plugin-manifest.mjs` in this repository) and declares it in
 * package.json: `"cvdevkit": { "plugin": "./dist/index.js", "manifest": "./dist/devkit.json" }`.
 * A plugin without a manifest still works: discovery imports it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { metricNames, type DatasetPlugin } from '@cvdevkit/core';

export const MANIFEST_SCHEMA = 'cvdevkit.plugin-manifest/1';

/** One task as listed without importing its plugin. */
export interface TaskSummary {
  id: string;
  title: string;
  /** The official metric. */
  metric: string;
  /** The names of every accepted metric, the official one included. */
  metrics: string[];
  /** The task's metric objects (metrics listed by name only have none). */
  metricObjects: { name: string; description: string }[];
  /** Whether the task has an embedded sample (`cvdevkit demo`). */
  sample: boolean;
  /** The optional hooks the task implements (`validate`, `analyze`, `merge`, `replicate`), for the CLI's help. */
  hooks: TaskHook[];
}

/** The optional task hooks a manifest records. */
export const TASK_HOOKS = ['validate', 'analyze', 'merge', 'replicate'] as const;
export type TaskHook = (typeof TASK_HOOKS)[number];

/** A plugin as listed without importing it. */
export interface PluginSummary {
  /** Dataset name (`meta.name`). */
  name: string;
  title: string;
  version: string;
  tasks: TaskSummary[];
  metrics: { name: string; description: string }[];
}

/** The summary of an imported (contract-checked) plugin. */
export function summarizePlugin(plugin: DatasetPlugin): PluginSummary {
  return {
    name: plugin.meta.name,
    title: plugin.meta.title,
    version: plugin.meta.version,
    tasks: Object.values(plugin.tasks).map((t) => ({
      id: t.id,
      title: t.title,
      metric: t.metric,
      metrics: metricNames(t),
      metricObjects: t.metrics.flatMap((m) => (typeof m === 'string' ? [] : [{ name: m.name, description: m.description }])),
      sample: typeof t.sample === 'function',
      hooks: TASK_HOOKS.filter((h) => typeof t[h] === 'function'),
    })),
    metrics: (plugin.metrics ?? []).map((m) => ({ name: m.name, description: m.description })),
  };
}

/** Writes the manifest of a plugin (the build step of a plugin package). */
export function writePluginManifest(file: string, plugin: DatasetPlugin): void {
  writeFileSync(file, JSON.stringify({ schema: MANIFEST_SCHEMA, ...summarizePlugin(plugin) }, null, 2) + '\n');
}

const isString = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);

/**
 * Reads a manifest; undefined when the file is missing or is not a manifest of this schema (discovery
 * then imports the plugin, which checks the contract and names what is wrong).
 */
export function readPluginManifest(file: string): PluginSummary | undefined {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const m = value as Record<string, unknown>;
  if (m.schema !== MANIFEST_SCHEMA || !isString(m.name) || !isString(m.title) || !isString(m.version) || !Array.isArray(m.tasks) || m.tasks.length === 0) return undefined;
  const tasks: TaskSummary[] = [];
  for (const t of m.tasks as unknown[]) {
    if (typeof t !== 'object' || t === null) return undefined;
    const o = t as Record<string, unknown>;
    if (!isString(o.id) || !isString(o.title) || !isString(o.metric) || !isStringArray(o.metrics) || !o.metrics.includes(o.metric)) return undefined;
    tasks.push({ id: o.id, title: o.title, metric: o.metric, metrics: [...o.metrics], metricObjects: describedMetrics(o.metricObjects), sample: o.sample === true, hooks: TASK_HOOKS.filter((h) => Array.isArray(o.hooks) && o.hooks.includes(h)) });
  }
  return { name: m.name, title: m.title, version: m.version, tasks, metrics: describedMetrics(m.metrics) };
}

function describedMetrics(value: unknown): { name: string; description: string }[] {
  const out: { name: string; description: string }[] = [];
  for (const x of Array.isArray(value) ? (value as unknown[]) : []) {
    const o = x as Record<string, unknown>;
    if (typeof o === 'object' && o !== null && isString(o.name) && typeof o.description === 'string') out.push({ name: o.name, description: o.description });
  }
  return out;
}
