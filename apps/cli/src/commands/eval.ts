/** `cvdevkit eval <task> [task options]`: score a submission and print the report. */
import type { Command } from 'commander';
import type { RegisteredTask } from '@cvdevkit/registry';
import { addCommonOptions } from '../common-options.js';
import { EXIT } from '../failures.js';
import { taskOptionValues } from '../options.js';
import { REPORT_FORMATS } from '../output/index.js';
import type { CliSession } from '../session.js';
import { addTaskOptions, type CommandModule } from './command.js';

/** Whether `--format` was given on the command line (otherwise `--out`'s extension may choose it). */
export function formatGiven(cmd: Command): boolean {
  return cmd.getOptionValueSource('format') === 'cli';
}

async function evaluate(session: CliSession, entry: RegisteredTask, opts: Record<string, unknown>, attributeOf: Map<string, string>, formatExplicit: boolean): Promise<number> {
  const common = session.common(opts, formatExplicit);
  const hook = session.registry.prepareHook(entry.id, 'evaluate', common.metric);
  const values = taskOptionValues(entry.task, opts, attributeOf, session.io.cwd);
  const perImage = opts.perImage === true;
  const report = await session.withContext(common, async (ctx, logs) => session.finishReport(await session.runTask(entry, () => hook.call(values, { ...ctx, perImage })), logs));
  await session.printReports([report], common, { taskOptions: [values] });
  return EXIT.ok;
}

export const evalCommand: CommandModule = ({ program, session, entry, known, done }) => {
  const cmd = program
    .command('eval')
    .description('score a submission')
    .argument('<task>', `task id (${known.join(', ') || 'none installed'})`);
  const attributeOf = entry ? addTaskOptions(cmd, entry, (m) => session.warn(m)) : new Map<string, string>();
  cmd.option('--per-image', 'store per-image statistics in the report (extra.perImage) for `cvdevkit compare --bootstrap`');
  addCommonOptions(cmd, { report: true, run: true }, REPORT_FORMATS).action((id: string, opts: Record<string, unknown>) =>
    done(evaluate(session, session.registry.getTask(id), opts, attributeOf, formatGiven(cmd))),
  );
};
