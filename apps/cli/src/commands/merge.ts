/** `cvdevkit merge <task> <files…>`: the task combines the files of sharded runs into one report. */
import { resolve } from 'node:path';
import { createRunContext, usageError } from '@cvdevkit/core';
import type { RegisteredTask } from '@cvdevkit/registry';
import { addCommonOptions } from '../common-options.js';
import { EXIT } from '../failures.js';
import { REPORT_FORMATS } from '../output/index.js';
import type { CliSession } from '../session.js';
import type { CommandModule } from './command.js';
import { formatGiven } from './eval.js';
import { tasksWith } from './analyze.js';

async function merge(session: CliSession, entry: RegisteredTask, files: string[], opts: Record<string, unknown>, formatExplicit: boolean): Promise<number> {
  const common = session.common(opts, formatExplicit);
  const mergeFn = entry.task.merge;
  if (typeof mergeFn !== 'function') throw usageError(`task "${entry.id}" has no merge step (only tasks that can be sharded do)`, 'usage/no-merge', `tasks with a merge step: ${tasksWith(session, 'merge')}`);
  if (files.length === 0) throw usageError('merge: expected one or more files to merge', 'usage/missing-argument');
  const paths = files.map((f) => resolve(session.io.cwd, f));
  const report = await session.withContext(common, common.metric, async (ctx, logs) =>
    session.finishReport(await session.runTask(entry, () => mergeFn.call(entry.task, paths, createRunContext(ctx))), logs),
  );
  await session.printReports([report], common);
  return EXIT.ok;
}

export const mergeCommand: CommandModule = ({ program, session, done }) => {
  const cmd = program
    .command('merge')
    .description('combine the files written by sharded runs of a task (e.g. --shard i/n --counts-out f) into one report')
    .argument('<task>', `task id (installed tasks with a merge step: ${tasksWith(session, 'merge')})`)
    .argument('<files...>', "the shards' files");
  addCommonOptions(cmd, { report: true }, REPORT_FORMATS).action((id: string, files: string[], opts: Record<string, unknown>) =>
    done(merge(session, session.registry.getTask(id), files, opts, formatGiven(cmd))),
  );
};
