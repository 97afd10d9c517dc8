/**
 * The CLI's own failure kinds (beside DevkitError) and how any error is printed: exit code and text. No commander
 * here: `cvdevkit list`'s short path (list-fast.ts) prints its errors with this module without loading commander;
 * commander's own errors are printed by main.ts, the one place they are caught.
 */
import { isDevkitError } from '@cvdevkit/core';
import type { RegisteredTask } from '@cvdevkit/registry';

export const EXIT = { ok: 0, usage: 1, input: 2, internal: 3, interrupted: 130 } as const;

/** The run was stopped by Ctrl-C. */
export class Interrupted extends Error {
  constructor() {
    super('interrupted');
  }
}

/**
 * Standard output was closed by its reader (`cvdevkit … | head`): the reader has what it wanted, so the
 * run stops without a message and exits 0, as a pipeline expects.
 */
export class OutputClosed extends Error {
  constructor() {
    super('standard output closed by its reader');
  }
}

/** A plugin threw something that is not a DevkitError: an internal error naming the task and plugin. */
export class PluginFailure extends Error {
  constructor(entry: RegisteredTask, cause: unknown) {
    const m = cause instanceof Error ? cause.message : String(cause);
    super(`task "${entry.id}" (${entry.plugin.packageName}@${entry.plugin.version}) failed: ${m.split('\n')[0]}`, { cause });
  }
}

/** Prints an error the way its kind asks for (stack traces only with `debug`); returns the exit code. */
export function printError(e: unknown, stderr: NodeJS.WritableStream, debug: boolean, prefix = ''): number {
  if (e instanceof OutputClosed) return EXIT.ok;
  if (e instanceof Interrupted) {
    stderr.write(`${prefix}interrupted\n`);
    return EXIT.interrupted;
  }
  const hint = debug ? '' : ' (run with --debug for the stack trace)';
  if (isDevkitError(e)) {
    // exitCode comes from the error's kind; an error from another copy of core carries the same kinds
    const code = typeof e.exitCode === 'number' ? e.exitCode : e.kind === 'usage' ? EXIT.usage : e.kind === 'input' ? EXIT.input : EXIT.internal;
    const message = e.kind === 'internal' ? e.message.split('\n')[0] : e.message;
    stderr.write(`error: ${prefix}${message}\n`);
    if (code === EXIT.internal && debug) printStack(e, stderr);
    return code;
  }
  if (e instanceof PluginFailure) {
    stderr.write(`internal error: ${prefix}${e.message}${hint}\n`);
    if (debug) printStack(e.cause, stderr);
    return EXIT.internal;
  }
  const message = e instanceof Error ? e.message : String(e);
  stderr.write(`internal error: ${prefix}${message.split('\n')[0]}${hint}\n`);
  if (debug) printStack(e, stderr);
  return EXIT.internal;
}

function printStack(e: unknown, stderr: NodeJS.WritableStream): void {
  let cur: unknown = e;
  for (let depth = 0; cur !== undefined && cur !== null && depth < 5; depth++) {
    if (cur instanceof Error && cur.stack) stderr.write((depth > 0 ? 'caused by: ' : '') + cur.stack + '\n');
    cur = cur instanceof Error ? cur.cause : undefined;
  }
}
