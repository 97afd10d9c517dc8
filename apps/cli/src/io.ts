/** Where the CLI reads and writes; `process` by default, replaceable in tests. */
export interface CliIo {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Install SIGINT handling (default true). */
  handleSignals?: boolean;
}
