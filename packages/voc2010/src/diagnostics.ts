import { type Diagnostic, type ProblemCollector } from '@cvdevkit/core';

/** Problems as error diagnostics (for `validate`). */
export function problemsToDiagnostics(problems: ProblemCollector): Diagnostic[] {
  const out: Diagnostic[] = problems.problems.map((p) => {
    const { code, file, line, ...rest } = p;
    return { ...rest, severity: 'error', code, message: describeProblem(p), ...(file !== undefined ? { file } : {}), ...(line !== undefined ? { line } : {}) };
  });
  if (problems.size > problems.problems.length) {
    out.push({ severity: 'error', code: 'input/more', message: `… and ${problems.size - problems.problems.length} more problems` });
  }
  return out;
}

/** A problem's text without its file and line (a diagnostic carries those separately). */
export function describeProblem(p: { expected?: string; found?: string; detail?: string; hint?: string; field?: string }): string {
  const parts: string[] = [];
  if (p.detail) parts.push(p.detail);
  if (p.expected !== undefined) parts.push(`expected ${p.expected}`);
  if (p.found !== undefined) parts.push(`found ${p.found}`);
  let text = parts.join(', ');
  if (p.field !== undefined) text = `[${p.field}] ${text}`;
  return p.hint ? `${text} (${p.hint})` : text;
}
