/** `cvdevkit list`: every installed dataset, task and metric (plain `cvdevkit list …` is answered by ../list-fast.ts, with the same output). */
import { addCommonOptions } from '../common-options.js';
import { EXIT } from '../failures.js';
import type { CommandModule } from './command.js';
import { LIST_FORMATS, writeList } from './list-output.js';

export const listCommand: CommandModule = ({ program, session, done }) => {
  addCommonOptions(program.command('list').description('every installed dataset, task and metric'), {}, LIST_FORMATS).action((opts: Record<string, unknown>) => {
    const common = session.common(opts);
    writeList(session.registry, common.format, (text) => session.out(text), session.io.stderr);
    return done(EXIT.ok);
  });
};
