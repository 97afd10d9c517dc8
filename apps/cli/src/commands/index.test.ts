import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import type { CliSession } from '../session.js';
import { COMMANDS } from './index.js';

describe('COMMANDS', () => {
  it('each entry registers the command it is named after (buildProgram registers only the command argv names)', () => {
    const session = { registry: { tasks: () => [], tasksWithHook: () => 'none' } } as unknown as CliSession;
    for (const [name, register] of COMMANDS) {
      const program = new Command('cvdevkit');
      register({ program, session, entry: undefined, known: [], done: async () => {} });
      expect(program.commands.map((c) => c.name())).toEqual([name]);
    }
  });
});
