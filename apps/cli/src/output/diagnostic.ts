/** One line per diagnostic on stderr: `warning: file:line: message [code]`. */
import { formatLocation, type Diagnostic } from '@cvdevkit/core';

export function formatDiagnostic(d: Diagnostic): string {
  const where = formatLocation({ file: d.file, line: d.line });
  return `${d.severity}: ${where ? where + ': ' : ''}${d.message}${d.code ? ` [${d.code}]` : ''}`;
}
