/** `cvdevkit list`: every installed dataset, task and metric. */
import { addCommonOptions } from '../common-options.js';
import { EXIT } from '../failures.js';
import { alignColumns, csvField, markdownTable } from '../output/text.js';
import type { CliSession } from '../session.js';
import type { CommandModule } from './command.js';

function listJson(session: CliSession): string {
  const registry = session.registry;
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
function metricRows(session: CliSession): string[][] {
  const rows = new Map<string, { description: string; tasks: string[] }>();
  const add = (m: { name: string; description: string }, task?: string) => {
    const row = rows.get(m.name) ?? { description: m.description, tasks: [] };
    if (task !== undefined) row.tasks.push(task);
    rows.set(m.name, row);
  };
  for (const t of session.registry.tasks()) for (const m of t.metricObjects) add(m, t.id);
  for (const p of session.registry.plugins) for (const m of p.summary.metrics) add(m);
  return [...rows].map(([name, r]) => [`  ${name}`, r.description, r.tasks.join(', ')]);
}

function list(session: CliSession, opts: Record<string, unknown>): number {
  const common = session.common(opts);
  const registry = session.registry;
  const plugins = registry.plugins;
  if (common.format === 'json') {
    session.out(listJson(session));
    return EXIT.ok;
  }
  if (plugins.length === 0) {
    session.io.stderr.write('no cvdevkit plugins found: install one (for example npm i @cvdevkit/voc2010) or pass --plugin <path>\n');
    return EXIT.ok;
  }
  // Read from the plugins' manifests: listing imports no plugin.
  const tasks = registry.tasks();
  const rows = tasks.map((t) => [t.id, t.title, t.metric, t.metrics.filter((m: string) => m !== t.metric).join(', ') || '-', `${t.plugin.packageName}@${t.plugin.version}`]);
  if (common.format === 'markdown') session.out(markdownTable(['task', 'title', 'metric', 'other metrics', 'package'], rows));
  else if (common.format === 'csv')
    session.out(
      ['task,title,metric,metrics,package,version', ...tasks.map((t) => [t.id, t.title, t.metric, t.metrics.join(' '), t.plugin.packageName, t.plugin.version].map(csvField).join(','))].join('\n') +
        '\n',
    );
  else {
    session.out('Datasets\n');
    session.out(alignColumns(undefined, plugins.map((p) => [`  ${p.summary.name}`, p.summary.title, `${p.packageName}@${p.version}`, `(${p.source})`])));
    session.out('\nTasks\n');
    session.out(alignColumns(['  task', 'title', 'metric', 'other metrics', 'package'], rows.map((r) => [`  ${r[0]}`, ...r.slice(1)])));
    const metrics = metricRows(session);
    if (metrics.length > 0) session.out('\nMetrics\n' + alignColumns(undefined, metrics));
  }
  return EXIT.ok;
}

export const listCommand: CommandModule = ({ program, session, done }) => {
  addCommonOptions(program.command('list').description('every installed dataset, task and metric'), {}, ['table', 'json', 'csv', 'markdown']).action(
    (opts: Record<string, unknown>) => done(list(session, opts)),
  );
};
