/**
 * Benchmark of the segm hot paths against pycocotools (when available), on a COCO-like synthetic case:
 * IMAGES images of 480×640, 7 ground-truth objects each (1–2 polygons of 24 vertices), 100 detections
 * each given as compressed RLE strings (jittered ground-truth polygons and random blobs), crowd 1 in 10.
 *
 *   pnpm --filter @cvdevkit/rle build && node --expose-gc packages/rle/bench/iou.bench.mjs [images=500] [runs=5]
 *   PYTHONPATH=<pycocotools 2.0.11 PythonAPI> node packages/rle/bench/iou.bench.mjs   # also the peer
 *
 * Phases, each over all images, CPU time (user+system, process.cpuUsage / time.process_time: steadier than
 * wall time on a busy machine), median of RUNS runs after a warm-up, ours and the peer alternated:
 *   polygons  ground-truth polygons → RLE, union per object (fromPolygons + merge / frPyObjects + merge)
 *   parse     detection strings → counts (decodeString; pycocotools parses inside every call instead)
 *   iou       detections × ground truths per image with crowd flags (iou / maskUtils.iou)
 *   area+box  area and toBbox of every detection
 * The peer's IoU matrices are compared with ours bit for bit.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromPolygons, merge, encodeString, decodeString, iou, area, toBbox } from '../dist/index.js';

const IMAGES = Number(process.argv[2] ?? 500);
const RUNS = Number(process.argv[3] ?? 5);
const H = 480, W = 640, GTS = 7, DETS = 100, VERTS = 24;

let seed = 12345;
const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
function star(cx, cy, r) {
  const p = [];
  for (let k = 0; k < VERTS; k++) {
    const a = (2 * Math.PI * k) / VERTS, rr = r * (0.6 + 0.4 * rnd());
    p.push(cx + rr * Math.cos(a), cy + rr * Math.sin(a));
  }
  return p;
}
const images = [];
for (let i = 0; i < IMAGES; i++) {
  const gts = [];
  for (let g = 0; g < GTS; g++) {
    const cx = 50 + rnd() * (W - 100), cy = 50 + rnd() * (H - 100), r = 15 + rnd() * 120;
    const polys = [star(cx, cy, r)];
    if (rnd() < 0.3) polys.push(star(cx + r, cy, r / 3));
    gts.push({ polys, crowd: rnd() < 0.1 ? 1 : 0, cx, cy, r });
  }
  const dts = [];
  for (let d = 0; d < DETS; d++) {
    const g = gts[d % GTS];
    const j = rnd() < 0.7 ? g : { cx: rnd() * W, cy: rnd() * H, r: 10 + rnd() * 100 };
    dts.push(encodeString(merge(fromPolygons([star(j.cx + (rnd() - 0.5) * 20, j.cy + (rnd() - 0.5) * 20, j.r * (0.8 + 0.4 * rnd()))], H, W))));
  }
  images.push({ gts: gts.map(({ polys, crowd }) => ({ polys, crowd })), dts });
}

function cpu() {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
function ours() {
  globalThis.gc?.(); // start each run without the previous run's garbage (node --expose-gc)
  // phase by phase over all images: one CPU clock reading per phase (a reading costs ~20 µs)
  const t = {};
  let t0 = cpu();
  const g = images.map((im) => im.gts.map((o) => merge(fromPolygons(o.polys, H, W))));
  t.polygons = cpu() - t0;
  t0 = cpu();
  const d = images.map((im) => im.dts.map((s) => decodeString(s, H, W)));
  t.parse = cpu() - t0;
  t0 = cpu();
  const out = images.map((im, i) => iou(d[i], g[i], im.gts.map((o) => o.crowd)));
  t.iou = cpu() - t0;
  t0 = cpu();
  for (const rles of d) for (const r of rles) {
    area(r);
    toBbox(r);
  }
  t.areaBox = cpu() - t0;
  return { t, out };
}

const PY = String.raw`
import json, sys, time
import numpy as np
from pycocotools import mask as M
images = json.load(open(sys.argv[1])); H, W = 480, 640
cpu = time.process_time
t0 = cpu(); G = [[M.merge(M.frPyObjects(o['polys'], H, W)) for o in im['gts']] for im in images]; t = {'polygons': cpu() - t0, 'parse': 0.0}
D = [[{'size': [H, W], 'counts': s} for s in im['dts']] for im in images]
t0 = cpu(); out = [M.iou(d, g, [x['crowd'] for x in im['gts']]) for d, g, im in zip(D, G, images)]; t['iou'] = cpu() - t0
t0 = cpu()
for d in D: a = M.area(d); b = M.toBbox(d)
t['areaBox'] = cpu() - t0
out = [np.asarray(o, dtype=np.float64).reshape(len(d), len(g)) for o, d, g in zip(out, D, G)]
open(sys.argv[2], 'wb').write(np.concatenate([x.ravel() for x in out]).tobytes())
print(json.dumps({k: v * 1000 for k, v in t.items()}))
`;
const dir = mkdtempSync(join(tmpdir(), 'rle-bench-'));
const peer = !!process.env.PYTHONPATH;
if (peer) writeFileSync(join(dir, 'images.json'), JSON.stringify(images));
const runs = { ours: [], peer: [] };
let mine;
ours(); // warm-up
for (let r = 0; r < RUNS; r++) {
  if (peer) runs.peer.push(JSON.parse(execFileSync('python3', ['-c', PY, join(dir, 'images.json'), join(dir, 'iou.bin')], { encoding: 'utf8' })));
  if (peer) ours(); // unmeasured: the first run after the peer pays for the heap left behind (concurrent sweeping)
  const o = ours();
  mine = o.out;
  runs.ours.push(o.t);
}
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const phases = ['polygons', 'parse', 'iou', 'areaBox'];
console.log(`${IMAGES} images of ${H}x${W}, ${GTS} gt (polygons of ${VERTS} vertices) and ${DETS} detections each; CPU ms, median of ${RUNS}`);
for (const p of phases) {
  const a = med(runs.ours.map((t) => t[p]));
  const b = peer ? med(runs.peer.map((t) => t[p])) : NaN;
  console.log(`${p.padEnd(9)} ours ${a.toFixed(1).padStart(8)}   pycocotools ${peer ? b.toFixed(1).padStart(8) : '     n/a'}   ${peer && a > 0 ? (b / a).toFixed(1) + '×' : ''}`);
}
if (peer) {
  const theirs = new Float64Array(readFileSync(join(dir, 'iou.bin')).buffer.slice(0));
  const all = new Float64Array(mine.reduce((n, o) => n + o.length, 0));
  let k = 0;
  for (const o of mine) { all.set(o, k); k += o.length; }
  let same = 0;
  for (let i = 0; i < all.length; i++) if (Object.is(all[i], theirs[i])) same++;
  console.log(`IoU values bit-identical to pycocotools: ${same} / ${all.length}`);
}
rmSync(dir, { recursive: true, force: true });
