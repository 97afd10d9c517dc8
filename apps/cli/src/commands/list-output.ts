/**
 * What `cvdevkit list` prints, in each of its formats: shared by the commander command (list.ts) and the short path
 * that answers plain `cvdevkit list …` without loading commander (../list-fast.ts), so both print the same bytes.
 * Read from the plugins' manifests: listing imports no plugin.
 */
import type { PluginRegistry } from '@cvdevkit/registry';
import { alignColumns, csvField, markdownTable } from '../output/text.js';

/** The formats `list --format` accepts (the first is the default). */
export const LIST_FORMATS = ['table', 'json', 'csv', 'markdown'] as const;

function listJson(registry: PluginRegistry): string {
  const doc = {
    schema: 'cvdevkit.list/1',
    plugins: registry.plugins.map((p) => ({
      package: p.packageName,
      version: p.version,
      source: p.source,
      entry: p.entry,
      dataset: { name: p.summary.name, title: p.summary.title },
      tasks: p.summary.tasks.map((t) => ({ id: t.id, title: t.title, metric: t.metric, metrics: [...t.metrics] })),
      metrics: p.summary.metrics.map((m) => ({ name: m.name, description: m.description })),
    })),
    warnings: registry.warnings,
  };
  return JSON.stringify(doc, null, 2) + '\n';
}

/** Every metric object the installed tasks list (and plugin-level metrics): name, description, the tasks that accept it. */
function metricRows(registry: PluginRegistry): string[][] {
  const rows = new Map<string, { description: string; tasks: string[] }>();
  const add = (m: { name: string; description: string }, task?: string) => {
    const row = rows.get(m.name) ?? { description: m.description, tasks: [] };
    if (task !== undefined) row.tasks.push(task);
    rows.set(m.name, row);
  };
  for (const t of registry.tasks()) for (const m of t.metricObjects) add(m, t.id);
  for (const p of registry.plugins) for (const m of p.summary.metrics) add(m);
  return [...rows].map(([name, r]) => [`  ${name}`, r.description, r.tasks.join(', ')]);
}

/** Writes the listing in `format` through `out` (stdout); the "no plugins" note goes to `stderr`. */
export function writeList(registry: PluginRegistry, format: string, out: (text: string) => void, stderr: NodeJS.WritableStream): void {
  const plugins = registry.plugins;
  if (format === 'json') {
    out(listJson(registry));
    return;
  }
  if (plugins.length === 0) {
    stderr.write('no cvdevkit plugins found: install one (for example npm i @cvdevkit/voc2010) or pass --plugin <path>\n');
    return;
  }
  const tasks = registry.tasks();
  const rows = tasks.map((t) => [t.id, t.title, t.metric, t.metrics.filter((m: string) => m !== t.metric).join(', ') || '-', `${t.plugin.packageName}@${t.plugin.version}`]);
  if (format === 'markdown') out(markdownTable(['task', 'title', 'metric', 'other metrics', 'package'], rows));
  else if (format === 'csv')
    out(
      ['task,title,metric,metrics,package,version', ...tasks.map((t) => [t.id, t.title, t.metric, t.metrics.join(' '), t.plugin.packageName, t.plugin.version].map(csvField).join(','))].join('\n') +
        '\n',
    );
  else {
    out('Datasets\n');
    out(alignColumns(undefined, plugins.map((p) => [`  ${p.summary.name}`, p.summary.title, `${p.packageName}@${p.version}`, `(${p.source})`])));
    out('\nTasks\n');
    out(alignColumns(['  task', 'title', 'metric', 'other metrics', 'package'], rows.map((r) => [`  ${r[0]}`, ...r.slice(1)])));
    const metrics = metricRows(registry);
    if (metrics.length > 0) out('\nMetrics\n' + alignColumns(undefined, metrics));
  }
}
