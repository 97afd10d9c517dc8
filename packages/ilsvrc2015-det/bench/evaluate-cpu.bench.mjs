// CPU time of the evaluation alone (predictions parsed and matched; ground truth loaded once),
// on det_large: `node bench/evaluate-cpu.bench.mjs`. process.cpuUsage() is robust to a busy machine.
import { createRunContext } from '@cvdevkit/core';
import { readGroundTruthXml, readImageList, readSynsets, readPredictions, readBlacklist, evaluateDetections } from '@cvdevkit/ilsvrc2015-common';
import { prepareLarge } from './prepare.mjs';

const dir = prepareLarge();
const syn = readSynsets(dir + '/meta.mat');
const list = readImageList(dir + '/val.txt');
const gt = await readGroundTruthXml(dir + '/Annotations', list, syn, createRunContext({ workers: 2 }));
for (let i = 0; i < 5; i++) {
  const cu0 = process.cpuUsage();
  const p = readPredictions(dir + '/pred.txt');
  const bl = readBlacklist(dir + '/blacklist.txt', syn);
  const cu1 = process.cpuUsage(cu0);
  evaluateDetections(gt, p, bl, { order: 'index', outside: 'error' });
  const cu2 = process.cpuUsage(cu0);
  console.log(`run ${i + 1}: parse predictions ${(cu1.user / 1000).toFixed(0)} ms CPU, evaluate ${((cu2.user - cu1.user) / 1000).toFixed(0)} ms CPU`);
}
