import { createRunContext } from '@devkit/core';
import { readGroundTruthXml, readImageList, readSynsets, readPredictions, readBlacklist, evaluateDetections } from '../dist/index.js';
import { rankDescending } from '@devkit/metrics';
const dir = process.argv[2];
const syn = readSynsets(dir + '/meta.mat');
const list = readImageList(dir + '/val.txt');
const gt = await readGroundTruthXml(dir + '/Annotations', list, syn, createRunContext({ workers: 2 }));
for (let i = 0; i < 5; i++) {
  const cu0 = process.cpuUsage(); let t = performance.now();
  const p = readPredictions(dir + '/pred.txt');
  const bl = readBlacklist(dir + '/blacklist.txt', syn);
  const t1 = performance.now(); const cu1 = process.cpuUsage(cu0);
  evaluateDetections(gt, p, bl, { order: 'index', outside: 'error' });
  const t2 = performance.now(); const cu2 = process.cpuUsage(cu0);
  rankDescending(p.confidences, { nan: 'first' });
  console.log("cpu read", (cu1.user/1000).toFixed(0), "cpu eval", ((cu2.user-cu1.user)/1000).toFixed(0), "wall eval", (t2 - t1).toFixed(0), 'rank', (performance.now() - t2).toFixed(0));
}
