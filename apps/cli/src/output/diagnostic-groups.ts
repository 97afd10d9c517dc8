/**
 * Repeated warnings shown as one line per kind: a task's validate step may find the same problem
 * thousands of times (a class id outside the meta in every line of a results file), and a screenful of
 * copies hides the other kinds. Warnings and info entries that share a code, more than `keep` of them,
 * become one line with the count and the first `keep` places; errors are always shown one by one (each
 * makes the submission invalid). The JSON output keeps every diagnostic.
 */
import { formatLocation, type Diagnostic } from '@cvdevkit/core';
import { formatDiagnostic } from './diagnostic.js';

export function formatDiagnosticsGrouped(diagnostics: readonly Diagnostic[], keep = 3): string[] {
  const byKind = new Map<string, Diagnostic[]>();
  for (const d of diagnostics) {
    if (d.severity === 'error' || !d.code) continue;
    const kind = `${d.severity}\u0000${d.code}`;
    const list = byKind.get(kind);
    if (list) list.push(d);
    else byKind.set(kind, [d]);
  }
  const lines: string[] = [];
  const shown = new Set<string>();
  for (const d of diagnostics) {
    const kind = `${d.severity}\u0000${d.code}`;
    const group = d.severity === 'error' || !d.code ? undefined : byKind.get(kind);
    if (!group || group.length <= keep) {
      lines.push(formatDiagnostic(d));
      continue;
    }
    if (shown.has(kind)) continue;
    shown.add(kind);
    const places = group.slice(0, keep).map((g) => formatLocation({ file: g.file, line: g.line }) || g.message);
    lines.push(`${formatDiagnostic(group[0])} (${group.length} like this; first at ${places.join(', ')}; --format json lists every one)`);
  }
  return lines;
}
