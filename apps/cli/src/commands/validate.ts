/** `cvdevkit validate <task> [task options]`: check a submission's files without scoring. */
import type { RegisteredTask } from '@cvdevkit/registry';
import { addCommonOptions } from '../common-options.js';
import { EXIT } from '../failures.js';
import { taskOptionValues } from '../options.js';
import { formatDiagnosticsGrouped } from '../output/diagnostic-groups.js';
import type { CliSession } from '../session.js';
import { addTaskOptions, type CommandModule } from './command.js';

async function validate(session: CliSession, entry: RegisteredTask, opts: Record<string, unknown>, attributeOf: Map<string, string>): Promise<number> {
  const common = session.common(opts);
  const hook = session.registry.prepareHook(entry.id, 'validate');
  const values = taskOptionValues(entry.task, opts, attributeOf, session.io.cwd);
  const diagnostics = await session.withContext(common, (ctx) => session.runTask(entry, () => hook.call(values, ctx)));
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.filter((d) => d.severity === 'warning').length;
  if (common.format === 'json') {
    session.out(JSON.stringify({ schema: 'cvdevkit.validation/1', task: entry.id, valid: errors === 0, diagnostics }, null, 2) + '\n');
  } else {
    // repeated warnings of one kind as one line (count and first places); JSON keeps every one
    for (const line of formatDiagnosticsGrouped(diagnostics)) session.out(line + '\n');
    session.out(
      diagnostics.length === 0
        ? `${entry.id}: valid, no problems found\n`
        : `${entry.id}: ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}\n`,
    );
  }
  // Errors make the submission invalid (exit 2); warnings (input the official code accepts, such as a class
  // id no curve counts) and info entries are shown but do not fail it.
  return errors > 0 ? EXIT.input : EXIT.ok;
}

export const validateCommand: CommandModule = ({ program, session, entry, done }) => {
  const cmd = program.command('validate').description("check a submission's files without scoring").argument('<task>', 'task id');
  const attributeOf = entry ? addTaskOptions(cmd, entry, () => {}) : new Map<string, string>();
  addCommonOptions(cmd, { run: true }, ['table', 'json']).action((id: string, opts: Record<string, unknown>) =>
    done(validate(session, session.registry.getTask(id), opts, attributeOf)),
  );
};
