import { formatProblem, isDevkitError, ProblemCollector, type DevkitError, type Problem, type ProblemLocation } from './errors.js';
import type { Diagnostic, Severity } from './report.js';

/** A location key of a problem (`file`, `line`, `column`, `pixel`, `field`, `offset`). */
export type LocationKey = keyof ProblemLocation;

export interface ProblemsToDiagnosticsOptions {
  /** Severity of every diagnostic (default `error`: validate reports problems as errors). */
  severity?: Severity;
  /**
   * Location keys carried as fields of the diagnostic, in this order, when the problem has them
   * (default `file`, `line`: the CLI prints `file:line: message`).
   */
  fields?: readonly LocationKey[];
  /**
   * How the message is written:
   * - `location` (default): `formatProblem` of the problem without the `fields` keys, so the rest of the
   *   location leads the text (`[field] (pixel x,y): expected …, found … (hint)`);
   * - `bracketed`: `pixel x,y: [field] detail, expected …, found … (hint)` (the VOC validate style);
   * - `plain`: `detail, expected …, found …` (no location, no hint).
   */
  message?: 'location' | 'bracketed' | 'plain';
  /** Also copy the problem's own properties (expected, found, hint, …) onto the diagnostic. */
  copyDetails?: boolean;
}

/** A problem's text without any location: `detail, expected X, found Y`. */
function problemBody(p: Problem): string {
  const parts: string[] = [];
  if (p.detail) parts.push(p.detail);
  if (p.expected !== undefined) parts.push(`expected ${p.expected}`);
  if (p.found !== undefined) parts.push(`found ${p.found}`);
  return parts.join(', ');
}

function problemMessage(p: Problem, style: 'location' | 'bracketed' | 'plain', fields: readonly LocationKey[]): string {
  if (style === 'plain') return problemBody(p);
  if (style === 'bracketed') {
    let text = problemBody(p);
    if (p.field !== undefined) text = `[${p.field}] ${text}`;
    if (p.hint) text += ` (${p.hint})`;
    return (p.pixel !== undefined ? `pixel ${p.pixel}: ` : '') + text;
  }
  const rest: Problem = { ...p };
  for (const k of fields) rest[k] = undefined;
  return formatProblem(rest);
}

/** One problem as one diagnostic (see `problemsToDiagnostics`). */
export function problemToDiagnostic(p: Problem, options: ProblemsToDiagnosticsOptions = {}): Diagnostic {
  const fields = options.fields ?? ['file', 'line'];
  const { code, ...details } = p;
  const located: Record<string, unknown> = {};
  for (const k of fields) if (p[k] !== undefined) located[k] = p[k];
  const head: Record<string, unknown> = options.copyDetails ? { ...details } : {};
  for (const k of fields) delete head[k];
  return { ...head, severity: options.severity ?? 'error', code, message: problemMessage(p, options.message ?? 'location', fields), ...located };
}

/**
 * The one problem → diagnostic converter: turns collected input problems (a `ProblemCollector`, a
 * `DevkitError` or a list of problems) into report diagnostics, for example what `validate` prints.
 * A collector that dropped problems beyond its limit adds one `input/more` diagnostic
 * (`… and N more problems`).
 */
export function problemsToDiagnostics(source: ProblemCollector | DevkitError | readonly Problem[], options: ProblemsToDiagnosticsOptions = {}): Diagnostic[] {
  const problems: readonly Problem[] = source instanceof ProblemCollector ? source.problems : isDevkitError(source) ? source.problems : (source as readonly Problem[]);
  const out = problems.map((p) => problemToDiagnostic(p, options));
  if (source instanceof ProblemCollector && source.size > source.problems.length) {
    out.push({ severity: options.severity ?? 'error', code: 'input/more', message: `… and ${source.size - source.problems.length} more problems` });
  }
  return out;
}
