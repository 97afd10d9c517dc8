import { formatProblem, type Diagnostic, type ProblemCollector } from '@devkit/core';

/** Problems as error diagnostics (for `validate`). */
export function problemsToDiagnostics(problems: ProblemCollector): Diagnostic[] {
  const out: Diagnostic[] = problems.problems.map((p) => {
    const { code, file, line, ...rest } = p;
    return { ...rest, severity: 'error', code, message: formatProblem(p), ...(file !== undefined ? { file } : {}), ...(line !== undefined ? { line } : {}) };
  });
  if (problems.size > problems.problems.length) {
    out.push({ severity: 'error', code: 'input/more', message: `… and ${problems.size - problems.problems.length} more problems` });
  }
  return out;
}
