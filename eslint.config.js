import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** The packages every benchmark shares; any other folder under packages/ is a plugin (or a plugin's own library). */
const SHARED_LAYERS = ['core', 'formats', 'matfile', 'metrics', 'boundary', 'registry', 'analysis', 'report-html', 'test-utils'];

export default tseslint.config(
  { ignores: ['**/dist/**', 'apps/cli/bundle/**', '**/node_modules/**', '**/.turbo/**', '.ci/**', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // ── the one-way flow (docs/plugins.md, "Dependencies"): enforced here, proven by tests/dependency-rule.test.ts ──
  // core depends on nothing
  {
    files: ['packages/core/src/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*.test-d.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^(?!node:|\\.{1,2}/)', message: '@cvdevkit/core depends on nothing: only node: built-ins and its own files.' }] }],
    },
  },
  // a plugin (any package under packages/ that is not a shared layer) hands data to analysis and report-html, never imports them
  {
    files: ['packages/*/src/**/*.ts'],
    ignores: [`packages/{${SHARED_LAYERS.join(',')}}/**`, '**/*.test.ts', '**/*.test-d.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['@cvdevkit/analysis', '@cvdevkit/analysis/*', '@cvdevkit/report-html', '@cvdevkit/report-html/*', '@cvdevkit/cli'], message: 'a plugin does not depend on analysis, report-html or the CLI: return core-typed data (AnalysisRequest, charts, replicators) instead.' }] }],
    },
  },
  // the shared layers and the CLI know no plugin: only the shared packages
  {
    files: [`packages/{${SHARED_LAYERS.join(',')}}/src/**/*.ts`, 'apps/cli/src/**/*.ts'],
    ignores: ['packages/core/**', 'packages/test-utils/**', '**/*.test.ts', '**/*.test-d.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['@cvdevkit/*', ...SHARED_LAYERS.flatMap((p) => [`!@cvdevkit/${p}`, `!@cvdevkit/${p}/*`])], message: 'shared layers and the CLI import no plugin: they know only what the registry found.' }] }],
    },
  },
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', performance: 'readonly', AbortController: 'readonly', AbortSignal: 'readonly', TextDecoder: 'readonly', TextEncoder: 'readonly', structuredClone: 'readonly', queueMicrotask: 'readonly', setImmediate: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
