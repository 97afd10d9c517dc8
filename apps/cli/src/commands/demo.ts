/** `cvdevkit demo [task]`: write a task's embedded sample and evaluate it (every task with a sample when none is named). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { metricNames, usageError, type Report } from '@cvdevkit/core';
import { ensureOutputDirSync } from '@cvdevkit/formats/fs';
import type { RegisteredTask } from '@cvdevkit/registry';
import { addCommonOptions } from '../common-options.js';
import { EXIT, Interrupted } from '../failures.js';
import { REPORT_FORMATS } from '../output/index.js';
import type { CliSession, CommonOptions } from '../session.js';
import type { CommandModule } from './command.js';
import { formatGiven } from './eval.js';

function demoTasks(session: CliSession, taskId: string | undefined, metric: string | undefined): RegisteredTask[] {
  if (taskId !== undefined) {
    // a task without a sample or a metric it does not accept: a usage error before anything is written
    session.registry.prepareHook(taskId, 'sample', metric);
    return [session.registry.getTask(taskId)];
  }
  const entries = session.registry.listTasks().filter((e) => typeof e.task.sample === 'function');
  if (entries.length === 0) throw usageError('no installed task has an embedded sample (see cvdevkit list)', 'usage/no-sample');
  return metric !== undefined ? entries.filter((e) => metricNames(e.task).includes(metric)) : entries;
}

async function runSample(session: CliSession, entry: RegisteredTask, dir: string, common: CommonOptions): Promise<{ report: Report; values: Record<string, unknown> }> {
  const sample = session.registry.prepareHook(entry.id, 'sample', common.metric);
  const evaluate = session.registry.prepareHook(entry.id, 'evaluate', common.metric);
  ensureOutputDirSync(dir, 'the sample data (--dir)');
  return session.withContext(common, async (ctx, logs) => {
    const values = await session.runTask(entry, () => sample.call(dir, ctx));
    const report = session.finishReport(await session.runTask(entry, () => evaluate.call(values, ctx)), logs);
    return { report, values };
  });
}

async function demo(session: CliSession, taskId: string | undefined, opts: Record<string, unknown>, formatExplicit: boolean): Promise<number> {
  const common = session.common(opts, formatExplicit);
  const entries = demoTasks(session, taskId, common.metric);
  const base = common.dir ?? mkdtempSync(join(tmpdir(), 'cvdevkit-demo-'));
  const reports: Report[] = [];
  const taskOptions: Array<Record<string, unknown>> = [];
  let exit: number = EXIT.ok;
  try {
    for (const entry of entries) {
      const dir = entries.length === 1 && taskId !== undefined ? base : join(base, entry.id.replace(/[/\\]/g, '-'));
      try {
        const { report, values } = await runSample(session, entry, dir, common);
        reports.push(report);
        taskOptions.push(values);
      } catch (e) {
        if (entries.length === 1 || e instanceof Interrupted) throw e;
        exit = Math.max(exit, session.reportError(e, `demo ${entry.id}: `));
      }
    }
    // without --dir the sample lives in a temporary folder removed below: the page's protocol says so
    const inputsNote = common.dir ? undefined : `the embedded sample, written to the temporary folder ${base} for this run and removed after it (keep it with \`cvdevkit demo --dir <dir>\`)`;
    if (reports.length > 0) await session.printReports(reports, common, { taskOptions, ...(inputsNote ? { inputsNote } : {}) });
    if (common.dir && !common.quiet) session.io.stderr.write(`sample data written to ${common.dir}\n`);
  } finally {
    if (!common.dir) rmSync(base, { recursive: true, force: true });
  }
  return exit;
}

export const demoCommand: CommandModule = ({ program, session, done }) => {
  const cmd = program
    .command('demo')
    .description("write a task's embedded sample and evaluate it (every task with a sample when no task is given)")
    .argument('[task]', 'task id')
    .option('--dir <dir>', 'write the sample here and keep it (default: a temporary directory, removed afterwards)');
  addCommonOptions(cmd, { report: true, run: true }, REPORT_FORMATS).action((id: string | undefined, opts: Record<string, unknown>) =>
    done(demo(session, id, opts, formatGiven(cmd))),
  );
};
