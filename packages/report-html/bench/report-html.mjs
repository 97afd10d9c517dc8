// What an HTML report adds to an evaluation, on VOC det `large` (20 classes, ~100 k detections) and ADE20K
// `medium` (150 classes): (1) end to end, `cvdevkit eval … --out r.html` against the same run with
// `--out r.json` (the baseline), alternating, median of BENCH_RUNS, and the same runs' time outside their
// evaluation (wall − the report's `timings.totalMs`: the HTML's added time without the evaluation's own
// noise, which is ±0.5 s on ADE20K), as the median of the pairwise differences; (2) the report alone: a fresh Node
// process that loads @cvdevkit/report-html as the CLI does (code cache of an earlier run, chart worker
// started with the page), renders every chart and writes the page, against a fresh
// process that only writes the JSON (baseline), wall and CPU time of that process (CPU time is the fairer
// figure on a machine shared with other jobs); (3) the file sizes.
// VOC large is generated first (git-ignored): python3 fixtures/voc2010/gen/gen_cases.py --out bench-data/voc2010 large
// Run after a build: pnpm --filter @cvdevkit/report-html bench
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '../../..');
const bin = join(repo, 'apps/cli/bundle/bin.js');
// the package's entry as the CLI loads it (package.json `exports`: the one-file build, scripts/bundle.mjs)
const lib = join(here, '../dist/report-html.mjs');
const runs = Number(process.env.BENCH_RUNS ?? 3);
const tmp = mkdtempSync(join(tmpdir(), 'cvdevkit-bench-html-'));

const vocLarge = join(repo, 'bench-data/voc2010/large');
const adeMedium = join(repo, 'fixtures/ade20k/medium');
// Each case in the default configuration (a cache directory, here the bench's own, warmed by one untimed
// run of each arm: parsed ground truth and the compiled Vega code), and VOC also without any cache
// (`--no-cache`: the first run on a machine).
const cache = ['--cache-dir', join(tmp, 'cache')];
const vocArgs = ['eval', 'voc2010/det', '--root', vocLarge];
const cases = [
  { name: 'VOC det large', args: [...vocArgs, ...cache], ready: existsSync(vocLarge) },
  { name: 'VOC det large, --no-cache', args: [...vocArgs, '--no-cache'], ready: existsSync(vocLarge), endToEndOnly: true },
  { name: 'ADE20K boundary medium', args: ['eval', 'ade20k/boundary', '--gt', join(adeMedium, 'annotations_boundary/validation'), '--pred', join(adeMedium, 'predictions_boundary/validation'), ...cache], ready: true },
];

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** The evaluation's own time in a report written by `--out` (`timings.totalMs`; in a page, of its embedded JSON report). */
function evaluationMs(file) {
  const text = readFileSync(file, 'utf8');
  if (file.endsWith('.json')) return JSON.parse(text).timings.totalMs;
  const embedded = /href="data:application\/gzip;base64,([A-Za-z0-9+/=]+)"/.exec(text);
  return JSON.parse(gunzipSync(Buffer.from(embedded[1], 'base64')).toString('utf8')).timings.totalMs;
}

function timed(args) {
  const t = performance.now();
  const r = spawnSync(process.execPath, args, { cwd: repo, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr}`);
  return { ms: performance.now() - t, stdout: r.stdout };
}

// The report alone, in a fresh process: read the JSON report, then either write it back (baseline) or
// load report-html, render the charts and write the page. Prints the in-process milliseconds.
const renderScript = (mode) => `
const t0 = performance.now();
const { readFileSync, writeFileSync } = await import('node:fs');
const report = JSON.parse(readFileSync(process.argv[1], 'utf8'));
if (${JSON.stringify(mode)} === 'html') {
  // as the CLI does: the code cache of an earlier run, the chart worker started as the page is begun
  const lib = await import(${JSON.stringify(lib)});
  lib.useChartCodeCache(process.argv[3]);
  lib.warmChartWorker();
  writeFileSync(process.argv[2], await lib.renderReportHtml(report));
} else writeFileSync(process.argv[2], JSON.stringify(report, null, 2));
const u = process.cpuUsage();
console.log(JSON.stringify({ ms: performance.now() - t0, cpu: (u.user + u.system) / 1000 }));
`;

for (const c of cases) {
  if (!c.ready) {
    console.log(`${c.name}: skipped (generate it: python3 fixtures/voc2010/gen/gen_cases.py --out bench-data/voc2010 large)`);
    continue;
  }
  const json = join(tmp, 'r.json');
  const html = join(tmp, 'r.html');
  const evalJson = [];
  const evalHtml = [];
  // each run's time outside its evaluation (wall − the report's timings.totalMs): without the evaluation's own noise
  const outsideJson = [];
  const outsideHtml = [];
  timed([bin, ...c.args, '--out', json, '-q']);
  timed([bin, ...c.args, '--out', html, '-q']);
  for (let i = 0; i < runs; i++) {
    const j = timed([bin, ...c.args, '--out', json, '-q']).ms;
    const h = timed([bin, ...c.args, '--out', html, '-q']).ms;
    evalJson.push(j);
    evalHtml.push(h);
    outsideJson.push(j - evaluationMs(json));
    outsideHtml.push(h - evaluationMs(html));
  }
  const mb = (f) => (statSync(f).size / 1024 / 1024).toFixed(2);
  const endToEnd = () => {
    console.log(`  eval --out r.json (baseline)          median ${median(evalJson).toFixed(0).padStart(6)} ms`);
    console.log(`  eval --out r.html                     median ${median(evalHtml).toFixed(0).padStart(6)} ms   added ${(median(evalHtml) - median(evalJson)).toFixed(0)} ms`);
    const added = median(outsideHtml.map((h, k) => h - outsideJson[k]));
    console.log(`  outside the evaluation: JSON ${median(outsideJson).toFixed(0)} ms, HTML ${median(outsideHtml).toFixed(0)} ms   added ${added.toFixed(0)} ms (pairwise median)`);
  };
  if (c.endToEndOnly) {
    console.log(`${c.name}`);
    endToEnd();
    continue;
  }
  const report = JSON.parse(readFileSync(json, 'utf8'));
  const points = report.curves.reduce((s, k) => s + (k.recall?.length ?? 0), 0);
  const reportFile = join(tmp, 'report.json');
  writeFileSync(reportFile, JSON.stringify(report));
  const aloneJson = [];
  const aloneHtml = [];
  const codeCache = join(tmp, 'cache');
  timed(['--input-type=module', '-e', renderScript('html'), reportFile, join(tmp, 'x.html'), codeCache]);
  for (let i = 0; i < runs; i++) {
    aloneJson.push(JSON.parse(timed(['--input-type=module', '-e', renderScript('json'), reportFile, join(tmp, 'x.json')]).stdout));
    aloneHtml.push(JSON.parse(timed(['--input-type=module', '-e', renderScript('html'), reportFile, join(tmp, 'x.html'), codeCache]).stdout));
  }
  console.log(`${c.name}: ${report.rows.length} rows, ${points} curve points`);
  endToEnd();
  const wall = (xs) => median(xs.map((x) => x.ms));
  const cpu = (xs) => median(xs.map((x) => x.cpu));
  console.log(`  report alone: write JSON (baseline)   median ${wall(aloneJson).toFixed(0).padStart(6)} ms  (CPU ${cpu(aloneJson).toFixed(0)} ms)`);
  console.log(`  report alone: load, chart, write HTML median ${wall(aloneHtml).toFixed(0).padStart(6)} ms  (CPU ${cpu(aloneHtml).toFixed(0)} ms)   added ${(wall(aloneHtml) - wall(aloneJson)).toFixed(0)} ms (CPU ${(cpu(aloneHtml) - cpu(aloneJson)).toFixed(0)} ms)`);
  console.log(`  sizes: HTML ${mb(html)} MB, JSON report ${mb(json)} MB   (${runs} runs each, alternating)`);
}
rmSync(tmp, { recursive: true, force: true });
