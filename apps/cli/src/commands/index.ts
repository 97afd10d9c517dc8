/** The commands, in the order `cvdevkit --help` lists them. A new command is one file plus one line here. */
import type { CommandModule } from './command.js';
import { compareCommand } from './compare.js';
import { analyzeCommand } from './analyze.js';
import { demoCommand } from './demo.js';
import { evalCommand } from './eval.js';
import { infoCommand } from './info.js';
import { listCommand } from './list.js';
import { mergeCommand } from './merge.js';
import { validateCommand } from './validate.js';

export type { CommandModule, CommandSetup } from './command.js';

/** Command name → its module (the name is the one the module registers: `buildProgram` registers only the command argv names). */
export const COMMANDS: ReadonlyMap<string, CommandModule> = new Map([
  ['list', listCommand],
  ['info', infoCommand],
  ['eval', evalCommand],
  ['analyze', analyzeCommand],
  ['validate', validateCommand],
  ['merge', mergeCommand],
  ['compare', compareCommand],
  ['demo', demoCommand],
]);

/** Commands whose first argument is a task id (its options become flags). */
export const TASK_COMMANDS = new Set(['eval', 'analyze', 'validate', 'merge', 'info', 'demo']);
