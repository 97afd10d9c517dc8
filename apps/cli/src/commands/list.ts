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
      dataset: { name: p.plugin.meta.name, title: p.plugin.meta.title },
      tasks: Object.values(p.plugin.tasks).map((t) => ({ id: t.id, title: t.title, metric: t.metric, metrics: [...t.metrics] })),
      metrics: (p.plugin.metrics ?? []).map((m) => ({ name: m.name, description: m.description })),
    })),
    warnings: registry.warnings,
  };
  return JSON.stringify(doc, null, 2) + '\n';
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
  const tasks = registry.listTasks();
  const rows = tasks.map((t) => [t.id, t.task.title, t.task.metric, t.task.metrics.filter((m: string) => m !== t.task.metric).join(', ') || '-', `${t.plugin.packageName}@${t.plugin.version}`]);
  if (common.format === 'markdown') session.out(markdownTable(['task', 'title', 'metric', 'other metrics', 'package'], rows));
  else if (common.format === 'csv')
    session.out(
      ['task,title,metric,metrics,package,version', ...tasks.map((t) => [t.id, t.task.title, t.task.metric, t.task.metrics.join(' '), t.plugin.packageName, t.plugin.version].map(csvField).join(','))].join('\n') +
        '\n',
    );
  else {
    session.out('Datasets\n');
    session.out(alignColumns(undefined, plugins.map((p) => [`  ${p.plugin.meta.name}`, p.plugin.meta.title, `${p.packageName}@${p.version}`, `(${p.source})`])));
    session.out('\nTasks\n');
    session.out(alignColumns(['  task', 'title', 'metric', 'other metrics', 'package'], rows.map((r) => [`  ${r[0]}`, ...r.slice(1)])));
    const metrics = plugins.flatMap((p) => (p.plugin.metrics ?? []).map((m) => [`  ${m.name}`, m.description, p.packageName]));
    if (metrics.length > 0) session.out('\nMetrics\n' + alignColumns(undefined, metrics));
  }
  return EXIT.ok;
}

export const listCommand: CommandModule = ({ program, session, done }) => {
  addCommonOptions(program.command('list').description('every installed dataset, task and metric'), {}, ['table', 'json', 'csv', 'markdown']).action(
    (opts: Record<string, unknown>) => done(list(session, opts)),
  );
};
