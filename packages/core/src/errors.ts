/**
 * One error type for everything cvdevkit reports to a user.
 *
 * `kind` decides the CLI exit code: usage → 1, input → 2, internal → 3.
 * Input problems carry where (`file`, `line` or `pixel` or `field` or `offset`) and
 * what was expected and found, so the message reads like
 * `comp3_det_val_car.txt:17: expected 6 fields "<image> <confidence> …", found 5`.
 */
import type { ErrorCode } from './codes.js';

export type ErrorKind = 'usage' | 'input' | 'internal';

export interface ProblemLocation {
  /** The file the problem is in (as given by the user, or relative to a root). */
  file?: string;
  /** 1-based line number in a text file. */
  line?: number;
  /** 1-based column in that line (XML). */
  column?: number;
  /** Pixel as "x,y" (1-based column, row) or a free text location in an image. */
  pixel?: string;
  /** A named field (XML element path, MAT variable, option name, …). */
  field?: string;
  /** Byte offset in a binary file. */
  offset?: number;
}

export interface Problem extends ProblemLocation {
  /** Stable machine-readable code from the catalogue (`codes.ts`), for example `input/field-count`. */
  code: ErrorCode;
  /** What the format requires. */
  expected?: string;
  /** What was actually there. */
  found?: string;
  /** A suggestion for fixing it. */
  hint?: string;
  /** Free text used when expected/found do not describe the problem well. */
  detail?: string;
}

const EXIT_CODES: Record<ErrorKind, number> = { usage: 1, input: 2, internal: 3 };

/** `file:line:` / `file (pixel x,y):` / `file [field]:` / `file @ byte n:` prefix of a message. */
export function formatLocation(loc: ProblemLocation): string {
  let s = loc.file ?? '';
  if (loc.line !== undefined) s += `:${loc.line}`;
  if (loc.line !== undefined && loc.column !== undefined) s += `:${loc.column}`;
  if (loc.pixel !== undefined) s += ` (pixel ${loc.pixel})`;
  if (loc.field !== undefined) s += s ? ` [${loc.field}]` : loc.field;
  if (loc.offset !== undefined) s += ` (byte ${loc.offset})`;
  return s;
}

/** One line describing a problem: `where: expected X, found Y (hint)`. */
export function formatProblem(p: Problem): string {
  const where = formatLocation(p);
  const parts: string[] = [];
  if (p.detail) parts.push(p.detail);
  if (p.expected !== undefined) parts.push(`expected ${p.expected}`);
  if (p.found !== undefined) parts.push(`found ${p.found}`);
  let text = parts.join(', ');
  if (p.hint) text += ` (${p.hint})`;
  return where ? `${where}: ${text}` : text;
}

export interface DevkitErrorInit extends Partial<Problem> {
  kind?: ErrorKind;
  /** Several problems found in one pass; the message lists them all. */
  problems?: Problem[];
  cause?: unknown;
  message?: string;
}

export class DevkitError extends Error {
  override readonly name = 'DevkitError';
  readonly kind: ErrorKind;
  readonly code: ErrorCode;
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
  readonly pixel?: string;
  readonly field?: string;
  readonly offset?: number;
  readonly expected?: string;
  readonly found?: string;
  readonly hint?: string;
  readonly detail?: string;
  readonly problems: Problem[];

  constructor(init: DevkitErrorInit) {
    const code: ErrorCode = init.code ?? (init.kind === 'usage' ? 'usage/invalid' : init.kind === 'internal' ? 'internal/error' : 'input/invalid');
    const own: Problem = { ...init, code };
    const problems = init.problems && init.problems.length > 0 ? init.problems : [own];
    const message =
      init.message ??
      (problems.length === 1
        ? formatProblem(problems[0])
        : `${problems.length} problems found:\n` + problems.map((p) => `  ${formatProblem(p)}`).join('\n'));
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind ?? 'input';
    this.code = code;
    this.file = init.file ?? (problems.length === 1 ? problems[0].file : undefined);
    this.line = init.line ?? (problems.length === 1 ? problems[0].line : undefined);
    this.column = init.column ?? (problems.length === 1 ? problems[0].column : undefined);
    this.pixel = init.pixel;
    this.field = init.field;
    this.offset = init.offset;
    this.expected = init.expected;
    this.found = init.found;
    this.hint = init.hint;
    this.detail = init.detail;
    this.problems = problems;
  }

  /** The process exit code the CLI uses for this error: 1 usage, 2 input, 3 internal. */
  get exitCode(): number {
    return EXIT_CODES[this.kind];
  }
}

export function isDevkitError(e: unknown): e is DevkitError {
  return e instanceof DevkitError || (typeof e === 'object' && e !== null && (e as { name?: unknown }).name === 'DevkitError' && 'kind' in e);
}

/** Shorthand for an input-data error (exit code 2). */
export function inputError(problem: Omit<Problem, 'code'> & { code?: ErrorCode }): DevkitError {
  return new DevkitError({ kind: 'input', ...problem, code: problem.code ?? 'input/invalid' });
}

/** Shorthand for a usage error (exit code 1). */
export function usageError(message: string, code: ErrorCode = 'usage/invalid', hint?: string): DevkitError {
  return new DevkitError({ kind: 'usage', code, detail: message, hint });
}

/**
 * Collects input problems so that one pass can report all of them together.
 * `add` stores a problem (up to `limit`), `throwIfAny` raises one DevkitError listing them.
 */
export class ProblemCollector {
  readonly problems: Problem[] = [];
  private dropped = 0;
  constructor(readonly limit = 50) {}

  add(problem: Problem): void {
    if (this.problems.length < this.limit) this.problems.push(problem);
    else this.dropped++;
  }

  /** Adds a DevkitError's problems (or rethrows anything that is not a DevkitError input error). */
  addError(e: unknown): void {
    if (isDevkitError(e) && e.kind === 'input') for (const p of e.problems) this.add(p);
    else throw e;
  }

  get size(): number {
    return this.problems.length + this.dropped;
  }

  throwIfAny(): void {
    if (this.problems.length === 0) return;
    if (this.problems.length === 1 && this.dropped === 0) throw new DevkitError({ kind: 'input', ...this.problems[0] });
    const more = this.dropped > 0 ? `\n  … and ${this.dropped} more` : '';
    const message =
      `${this.size} problems found:\n` + this.problems.map((p) => `  ${formatProblem(p)}`).join('\n') + more;
    throw new DevkitError({ kind: 'input', code: this.problems[0].code, problems: this.problems, message });
  }
}
