/** `cvdevkit merge <task> <files…> [task options]`: the task combines the files of sharded runs into one report. */
import { resolve } from 'node:path';
import { usageError } from '@cvdevkit/core';
import type { RegisteredTask } from '@cvdevkit/registry';
import { addCommonOptions } from '../common-options.js';
import { EXIT } from '../failures.js';
import { taskOptionValues } from '../options.js';
import { REPORT_FORMATS } from '../output/index.js';
import type { CliSession } from '../session.js';
import { addTaskOptions, type CommandModule } from './command.js';
import { formatGiven } from './eval.js';

async function merge(session: CliSession, entry: RegisteredTask, files: string[], opts: Record<string, unknown>, attributeOf: Map<string, string>, formatExplicit: boolean): Promise<number> {
  const common = session.common(opts, formatExplicit);
  const hook = session.registry.prepareHook(entry.id, 'merge', common.metric);
  if (files.length === 0) throw usageError('merge: expected one or more files to merge', 'usage/missing-argument');
  const paths = files.map((f) => resolve(session.io.cwd, f));
  // the task's options as given here (none required): the merge hook reads those that shape the merged report
  const options = taskOptionValues(entry.task, opts, attributeOf, session.io.cwd);
  // --per-image as for eval: the merged report stores the statistics one run over all images would
  const perImage = opts.perImage === true;
  const report = await session.withContext(common, async (ctx, logs) => session.finishReport(await session.runTask(entry, () => hook.call({ files: paths, options }, { ...ctx, perImage })), logs));
  await session.printReports([report], common);
  return EXIT.ok;
}

export const mergeCommand: CommandModule = ({ program, session, entry, done }) => {
  const cmd = program
    .command('merge')
    .description('combine the files written by sharded runs of a task (e.g. --shard i/n --counts-out f) into one report; the task options given here (none required) go to its merge step')
    .argument('<task>', `task id (installed tasks with a merge step: ${session.registry.tasksWithHook('merge')})`)
    .argument('<files...>', "the shards' files");
  // the task's own options, none required here: passed to its merge step (`context.options`)
  const attributeOf = entry ? addTaskOptions(cmd, entry, (m) => session.warn(m), { optional: true }) : new Map<string, string>();
  cmd.option('--per-image', 'store per-image statistics in the merged report (extra.perImage) for `cvdevkit compare --bootstrap`, as eval --per-image does');
  addCommonOptions(cmd, { report: true }, REPORT_FORMATS).action((id: string, files: string[], opts: Record<string, unknown>) =>
    done(merge(session, session.registry.getTask(id), files, opts, attributeOf, formatGiven(cmd))),
  );
};
