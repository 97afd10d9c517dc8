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

export const COMMANDS: readonly CommandModule[] = [listCommand, infoCommand, evalCommand, analyzeCommand, validateCommand, mergeCommand, compareCommand, demoCommand];

/** Commands whose first argument is a task id (its options become flags). */
export const TASK_COMMANDS = new Set(['eval', 'analyze', 'validate', 'merge', 'info', 'demo']);
