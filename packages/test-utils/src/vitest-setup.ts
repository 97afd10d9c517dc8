// Vitest setup file (vitest.config.ts `setupFiles`): after each test file, remove the temporary directories
// its tests made with makeTempDir, so that a run leaves nothing in the system temp dir.
import { afterAll } from 'vitest';
import { removeTempDirs } from './temp.js';

afterAll(() => removeTempDirs());
