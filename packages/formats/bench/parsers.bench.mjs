// Benchmark: the parsers of the light VOC tasks on the `large` VOC case, CPU time in one process
// (process.cpuUsage, so other load on the machine disturbs it less than wall time): the 5,000
// annotation XMLs through the full parser (fast-xml-parser + validator) and through `parseDevkitXml`
// (the plain-XML scanner in front of it), and the 2,000 label PNGs through `decodeLabelPng`.
// Run after `pnpm build` (part of `pnpm bench`): `node bench/parsers.bench.mjs`.
// VOCROOT = the case (default: packages/voc2010/bench-data/large, made by voc2010's large.bench.mjs);
// without it the benchmark says so and stops.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDevkitXml } from '../dist/xml.js';
import { parseFullXml } from '../dist/xml-full.js';
import { decodeLabelPng } from '../dist/png.js';
import { scanPascalRecord } from '../dist/xml-pascal-scan.js';
import { readInputBytesSync } from '../dist/input-file.js';
import { listFolder, listedFileBuffer, readListedFile } from '../dist/regular-files.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = process.env.VOCROOT ?? join(here, '../../voc2010/bench-data/large');
if (!existsSync(join(root, 'VOC2010/Annotations'))) {
  console.log(`skip: no VOC case at ${root} (set VOCROOT, or run packages/voc2010/bench/large.bench.mjs first)`);
  process.exit(0);
}
const cpuMs = (fn) => {
  const c0 = process.cpuUsage();
  fn();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

const annDir = join(root, 'VOC2010/Annotations');
const xmlPaths = readdirSync(annDir).map((f) => join(annDir, f));
const xmls = xmlPaths.map((f) => readFileSync(f, 'utf8'));
const xmlBytes = xmlPaths.map((f) => readFileSync(f));
const segIds = readFileSync(join(root, 'VOC2010/ImageSets/Segmentation/val.txt'), 'utf8').trim().split('\n');
const pngs = segIds.flatMap((id) => [join(root, 'VOC2010/SegmentationClass', `${id}.png`), join(root, 'results/VOC2010/Segmentation/comp5_val_cls', `${id}.png`)]).map((f) => readFileSync(f));
const pixels = pngs.reduce((s, b) => s + b.readUInt32BE(16) * b.readUInt32BE(20), 0);

const rows = [];
const runs = { full: [], scan: [], pascal: [], readInput: [], readListed: [], png: [] };
// first (cold JIT) and best-of-the-rest, alternated
for (let k = 0; k < 4; k++) {
  runs.full.push(cpuMs(() => xmls.forEach((t) => parseFullXml(t, 'x.xml'))));
  runs.scan.push(cpuMs(() => xmls.forEach((t) => parseDevkitXml(t, 'x.xml'))));
  runs.pascal.push(cpuMs(() => xmlBytes.forEach((b) => scanPascalRecord(b))));
  runs.readInput.push(cpuMs(() => xmlPaths.forEach((f) => readInputBytesSync(f, { kind: 'xml' }))));
  runs.readListed.push(
    cpuMs(() => {
      const folder = listFolder(annDir);
      xmlPaths.forEach((f) => readListedFile(f, folder, 1 << 24) >= 0 || listedFileBuffer());
    }),
  );
  runs.png.push(cpuMs(() => pngs.forEach((b) => decodeLabelPng(b))));
}
const row = (what, n, ms) => rows.push({ what, files: n, 'first run ms CPU': Math.round(ms[0]), 'median ms CPU': Math.round(median(ms.slice(1))), 'µs per file': Math.round((median(ms.slice(1)) * 1000) / n) });
row('XML, full parser (fast-xml-parser + validator)', xmls.length, runs.full);
row('XML, parseDevkitXml (plain-XML scanner)', xmls.length, runs.scan);
row('XML, scanPascalRecord (bytes straight to the boxes and flags)', xmls.length, runs.pascal);
row('XML files read, readInputBytesSync (stat, open, fstat, read, read, close)', xmls.length, runs.readInput);
row('XML files read, listed folder + readListedFile (open, read, close)', xmls.length, runs.readListed);
row(`label PNG decode (${(pixels / 1e6).toFixed(0)} Mpixel)`, pngs.length, runs.png);
const load = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
console.log(`parsers on ${root}, CPU time in one process (load average ${load})`);
console.table(rows);
