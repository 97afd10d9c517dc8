// Renders docs/compare-cd-diagram.{svg,png}: five synthetic submissions made from the VOC det results
// of fixtures/voc2010/medium (seeded perturbations, bench/submissions.mjs), evaluated with
// `cvdevkit eval --per-image` and compared with `cvdevkit compare --cd-diagram`. Run after `pnpm build`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { perturbDetResults } from './submissions.mjs';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const cli = join(repo, 'apps/cli/dist/bin.js');
const root = join(repo, 'fixtures/voc2010/medium');
const dir = mkdtempSync(join(tmpdir(), 'cvdevkit-docs-cd-'));
const specs = [
  ['A', { seed: 1, noise: 0.02, jitter: 1, drop: 0.02, perClass: 0.8 }],
  ['B', { seed: 2, noise: 0.1, jitter: 3, drop: 0.05, perClass: 0.8 }],
  ['C', { seed: 3, noise: 0.2, jitter: 5, drop: 0.1, perClass: 0.8 }],
  ['D', { seed: 4, noise: 0.3, jitter: 8, drop: 0.15, perClass: 0.8 }],
  ['E', { seed: 5, noise: 0.5, jitter: 12, drop: 0.3, perClass: 0.8 }],
];
try {
  const reports = [];
  for (const [name, o] of specs) {
    perturbDetResults(join(root, 'results/VOC2010'), join(dir, name), o);
    const out = join(dir, `${name}.json`);
    execFileSync(process.execPath, [cli, 'eval', 'voc2010/det', '--root', root, '--results', join(dir, name), '--per-image', '--format', 'json', '--out', out, '-q'], { stdio: 'ignore' });
    reports.push(out);
  }
  for (const ext of ['svg', 'png']) {
    const text = execFileSync(process.execPath, [cli, 'compare', 'voc2010/det', ...reports, '--names', specs.map((s) => `method ${s[0]}`).join(','), '--cd-diagram', join(repo, 'docs', `compare-cd-diagram.${ext}`)], { encoding: 'utf8' });
    if (ext === 'svg') console.log(text);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
