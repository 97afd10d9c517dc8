/** `cvdevkit compare <task> <report.json…>`: ranks, significance tests, CD diagram and bootstrap intervals. */
import { InvalidArgumentError, Option } from 'commander';
import type { PosthocMethod } from '@cvdevkit/analysis';
import { addCommonOptions } from '../common-options.js';
import { parseIntegerArg, parsePositiveIntegerArg } from '../options.js';
import { COMPARISON_FORMATS } from '../output/index.js';
import type { CommandModule } from './command.js';

const POSTHOC = ['nemenyi', 'bonferroni-dunn', 'wilcoxon-holm'] as const satisfies readonly PosthocMethod[];

function parseAlpha(v: string): number {
  const a = Number(v);
  if (!(a > 0 && a < 1)) throw new InvalidArgumentError(`expected a number in (0, 1), found "${v}"`);
  return a;
}

/** The most bootstrap replicates: 100,000 already give a percentile interval to three digits (and take seconds per method). */
export const MAX_BOOTSTRAP = 100_000;

function parseBootstrap(v: string): number {
  const n = parsePositiveIntegerArg(v);
  if (n > MAX_BOOTSTRAP) throw new InvalidArgumentError(`expected at most ${MAX_BOOTSTRAP.toLocaleString('en-US')} replicates, found "${v}"`);
  return n;
}

export const compareCommand: CommandModule = ({ program, session, done }) => {
  const cmd = program
    .command('compare')
    .description('compare submissions of one task: per-class ranks, Friedman and post-hoc tests, CD diagram, paired bootstrap over images')
    .argument('<task>', 'task id of the reports')
    .argument('<reports...>', 'reports written by `cvdevkit eval <task> … --format json` (add --per-image to bootstrap)')
    .option('--names <names>', 'comma-separated method names (default: the file names)')
    .addOption(new Option('--posthoc <test>', 'post-hoc test over the classes').choices([...POSTHOC]).default('nemenyi'))
    .option('--control <name>', 'control method of --posthoc bonferroni-dunn')
    .option('--alpha <a>', 'significance level, and 1 − the bootstrap interval level', parseAlpha, 0.05)
    .option('--bootstrap <n>', 'paired bootstrap over images with n replicates, at most 100,000 (needs eval --per-image reports)', parseBootstrap)
    .option('--seed <n>', 'seed of the bootstrap (default 0)', parseIntegerArg, 0)
    .option('--cd-diagram <file>', 'write the critical-difference diagram (.svg or .png)')
    .option('--out <file>', 'also write the output to this file (atomically; format from the extension unless --format is given)');
  addCommonOptions(cmd, {}, COMPARISON_FORMATS).action((task: string, files: string[], opts: Record<string, unknown>) =>
    done(import('./compare-run.js').then((run) => run.compare(session, task, files, opts, cmd.getOptionValueSource('format') === 'cli'))),
  );
};
