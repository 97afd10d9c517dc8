/**
 * `cvdevkit analyze <task> [task options] [--only …] [--tide-mode official|tide] [--top n] [--images dir]`:
 * diagnose a submission (AP vs overlap and object size, Hoiem's false-positive types, TIDE's errors, top
 * detections) through the task's optional `analyze` hook, on the task's own readers and official matching.
 */
import { resolve } from 'node:path';
import { Option } from 'commander';
import type { RegisteredTask } from '@cvdevkit/registry';
import { addCommonOptions } from '../common-options.js';
import { EXIT } from '../failures.js';
import { parsePositiveIntegerArg, taskOptionValues } from '../options.js';
import { REPORT_FORMATS } from '../output/index.js';
import type { CliSession } from '../session.js';
import { addTaskOptions, type CommandModule } from './command.js';
import { formatGiven } from './eval.js';
import { loadReportHtml } from '../report-html.js';

async function analyze(session: CliSession, entry: RegisteredTask, opts: Record<string, unknown>, attributeOf: Map<string, string>, formatExplicit: boolean): Promise<number> {
  const common = session.common(opts, formatExplicit);
  const hook = session.registry.prepareHook(entry.id, 'analyze', common.metric);
  // the crops of --images are drawn by report-html, an optional package: say so before any file is read
  if (typeof opts.images === 'string') await loadReportHtml('--images');
  const values = taskOptionValues(entry.task, opts, attributeOf, session.io.cwd);
  const analysis = {
    only: opts.only as string | undefined,
    tideMode: opts.tideMode as string | undefined,
    top: opts.top as number | undefined,
    images: typeof opts.images === 'string' ? resolve(session.io.cwd, opts.images) : undefined,
  };
  // the diagnosis runs here, on what the task's hook prepared (a plugin never depends on @cvdevkit/analysis)
  const { diagnoseOptions, runAnalysis } = await import('@cvdevkit/analysis');
  diagnoseOptions(analysis); // unknown sections, modes and counts are usage errors before any file is read
  const report = await session.withContext(common, async (ctx, logs) => {
    const request = await session.runTask(entry, () => hook.call({ ...values, ...analysis }, ctx));
    return session.finishReport(runAnalysis(request, analysis, ctx.progress), logs);
  });
  await session.printReports([report], common);
  return EXIT.ok;
}

export const analyzeCommand: CommandModule = ({ program, session, entry, done }) => {
  const cmd = program
    .command('analyze')
    .description('diagnose a submission: AP vs overlap and size, Hoiem error types, TIDE, top detections')
    .argument('<task>', `task id (installed tasks with an analysis: ${session.registry.tasksWithHook('analyze')})`);
  const attributeOf = entry ? addTaskOptions(cmd, entry, (m) => session.warn(m)) : new Map<string, string>();
  cmd.addOption(new Option('--only <sections>', 'comma-separated analyses: overlap,size,hoiem,tide,top (default: all the task supports)'));
  cmd.addOption(new Option('--tide-mode <mode>', 'TIDE baseline: official (the task\'s AP and matching) or tide (TIDE v1.0.1\'s own numbers)').choices(['official', 'tide']).default('official'));
  cmd.addOption(new Option('--top <n>', 'entries per list in the top section').argParser(parsePositiveIntegerArg));
  cmd.addOption(new Option('--images <dir>', 'folder of the test images (default: the task\'s own images folder, when its inputs have one)'));
  addCommonOptions(cmd, { report: true, run: true }, REPORT_FORMATS).action((id: string, opts: Record<string, unknown>) =>
    done(analyze(session, session.registry.getTask(id), opts, attributeOf, formatGiven(cmd))),
  );
};
