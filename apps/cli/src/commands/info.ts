/** `cvdevkit info <task>`: a task's inputs, official metric and accepted metrics. */
import { metricNames } from '@cvdevkit/core';
import type { RegisteredTask } from '@cvdevkit/registry';
import { addCommonOptions } from '../common-options.js';
import { EXIT } from '../failures.js';
import { kebabCase } from '../options.js';
import { alignColumns, markdownTable } from '../output/text.js';
import type { CliSession } from '../session.js';
import type { CommandModule } from './command.js';

function taskOptions(entry: RegisteredTask) {
  return entry.task.options.map((o) => ({ ...o, flag: `--${kebabCase(o.name)}` }));
}
type ShownOption = ReturnType<typeof taskOptions>[number];

function infoJson(entry: RegisteredTask): string {
  const t = entry.task;
  const doc = {
    schema: 'cvdevkit.task/1',
    id: t.id,
    title: t.title,
    description: t.description,
    package: entry.plugin.packageName,
    version: entry.plugin.version,
    source: entry.plugin.source,
    metric: t.metric,
    metrics: metricNames(t),
    options: taskOptions(entry),
    validate: typeof t.validate === 'function',
    sample: typeof t.sample === 'function',
  };
  return JSON.stringify(doc, null, 2) + '\n';
}

function requirement(o: ShownOption): string {
  const need = o.required && o.default === undefined ? 'required' : o.default !== undefined ? `default ${JSON.stringify(o.default)}` : 'optional';
  return [need, o.choices ? `one of ${o.choices.join('|')}` : ''].filter(Boolean).join(', ');
}

function infoText(entry: RegisteredTask): string {
  const t = entry.task;
  const options = taskOptions(entry);
  let text = `${t.id}: ${t.title}\n`;
  if (t.description) text += `${t.description}\n`;
  text += '\n';
  text += alignColumns(undefined, [
    ['plugin', `${entry.plugin.packageName}@${entry.plugin.version} (${entry.plugin.source})`],
    ['official metric', t.metric],
    ['accepted metrics', metricNames(t).join(', ')],
    ['validate', typeof t.validate === 'function' ? 'yes' : 'no'],
    ['demo sample', typeof t.sample === 'function' ? 'yes' : 'no'],
  ]);
  text += '\nInputs\n';
  text +=
    options.length === 0
      ? '  (none)\n'
      : alignColumns(['  option', 'type', 'required/default', 'description'], options.map((o) => [`  ${o.flag}${o.type === 'boolean' ? '' : ` <${o.type}>`}`, o.type, requirement(o), o.description]));
  return text;
}

function info(session: CliSession, entry: RegisteredTask, opts: Record<string, unknown>): number {
  const common = session.common(opts);
  if (common.format === 'json') session.out(infoJson(entry));
  else if (common.format === 'markdown')
    session.out(markdownTable(['option', 'type', 'required/default', 'description'], taskOptions(entry).map((o) => [o.flag, o.type, requirement(o), o.description])));
  else session.out(infoText(entry));
  return EXIT.ok;
}

export const infoCommand: CommandModule = ({ program, session, done }) => {
  addCommonOptions(program.command('info').description("a task's inputs, official metric and accepted metrics").argument('<task>', 'task id, for example voc2010/det'), {}, [
    'table',
    'json',
    'markdown',
  ]).action((id: string, opts: Record<string, unknown>) => done(info(session, session.registry.getTask(id), opts)));
};
