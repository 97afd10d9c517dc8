// Type tests (checked by `pnpm typecheck`): a plugin's own error codes, declared by augmenting
// `PluginErrorCodes` (docs/plugins.md, "Error codes"), compile wherever a code is expected; an undeclared
// code does not. The augmentation targets the module that declares the interface, as a plugin's
// `declare module '@cvdevkit/core'` reaches it through the package's index.
import type { ErrorCode } from './codes.js';
import { inputError, usageError } from './errors.js';
import type { Diagnostic } from './report.js';

export const TYPE_TEST_CODES = {
  'typetest/declared-warning': 'a code only this type test declares',
} satisfies Record<string, string>;

declare module './codes.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the keys come from the object above
  interface PluginErrorCodes extends Record<keyof typeof TYPE_TEST_CODES, string> {}
}

export const declaredCode: ErrorCode = 'typetest/declared-warning';
export const coreCode: ErrorCode = 'input/missing-file';
export const declaredDiagnostic: Diagnostic = { severity: 'warning', code: 'typetest/declared-warning', message: 'x' };
export const declaredError = inputError({ code: 'typetest/declared-warning', file: 'a.txt', expected: 'x', found: 'y' });
export const declaredUsage = usageError('x', 'typetest/declared-warning');

// @ts-expect-error a code no plugin declared does not compile
export const undeclaredCode: ErrorCode = 'typetest/undeclared';
// @ts-expect-error … nor in a diagnostic
export const undeclaredDiagnostic: Diagnostic = { severity: 'warning', code: 'typetest/undeclared', message: 'x' };
// @ts-expect-error … nor in an input error
export const undeclaredError = inputError({ code: 'typetest/undeclared', file: 'a.txt', expected: 'x', found: 'y' });
