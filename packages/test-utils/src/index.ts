export { FIXTURES, ILSVRC_REAL, REPO_ROOT, fixtureDir, fixturePath, readFixtureJson, readFixtureText } from './fixtures.js';
export { makeTempDir, removeTempDirs } from './temp.js';
export { CLI_BIN, cliBuilt, runCli, type CliResult } from './cli.js';
export { testRandom, testResampleCounts } from './resample.js';
