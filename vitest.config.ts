import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Tests import workspace packages through their built dist/ (the root `test` script builds first):
  // worker threads, which the tests start for real, cannot load the TypeScript sources.
  resolve: { conditions: ['source'] },
  test: {
    include: ['tests/**/*.test.ts', 'packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'apps/*/test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two files at a time even on 2 cores (vitest's default is cores − 1): many tests wait on child processes
    // (the CLI binary, npm, verdaccio, chromium), so a second file overlaps their waits.
    maxWorkers: 2,
    // Every test file removes the temporary directories it made with makeTempDir (@cvdevkit/test-utils).
    setupFiles: ['packages/test-utils/src/vitest-setup.ts'],
  },
});
