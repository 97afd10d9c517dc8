// Synthetic submissions for benchmarks and the docs' CD diagram: copies of a VOC results folder whose
// detection files are perturbed (seeded): scores get Gaussian noise, boxes a jitter, some lines vanish.
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** mulberry32: a small seeded stream for the perturbations (not the bootstrap's). */
export function stream(seed) {
  let a = seed >>> 0;
  const u = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const normal = () => Math.sqrt(-2 * Math.log(u() + 1e-300)) * Math.cos(2 * Math.PI * u());
  return { u, normal };
}

/**
 * Writes `<outDir>/Main/comp3_det_<set>_<cls>.txt` from `<resultsDir>/Main`, perturbed with `noise`
 * (score σ), `jitter` (box shift in px, σ) and `drop` (fraction of lines removed). `perClass` varies the
 * strength per class so that methods win different classes.
 */
export function perturbDetResults(resultsDir, outDir, { seed, noise = 0.1, jitter = 0, drop = 0, perClass = 0 }) {
  const r = stream(seed);
  mkdirSync(join(outDir, 'Main'), { recursive: true });
  for (const f of readdirSync(join(resultsDir, 'Main'))) {
    if (!/_det_/.test(f)) continue;
    const scale = 1 + perClass * (r.u() * 2 - 1);
    const lines = readFileSync(join(resultsDir, 'Main', f), 'utf8').split('\n');
    const out = [];
    for (const line of lines) {
      const t = line.trim().split(/\s+/);
      if (t.length < 6) continue;
      if (r.u() < drop * scale) continue;
      const s = Number(t[1]) + noise * scale * r.normal();
      const b = t.slice(2, 6).map((v) => (Number(v) + jitter * scale * r.normal()).toFixed(1));
      out.push(`${t[0]} ${s.toFixed(6)} ${b.join(' ')}`);
    }
    writeFileSync(join(outDir, 'Main', f), out.join('\n') + '\n');
  }
}
