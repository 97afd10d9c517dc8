/**
 * Issue 25 item 2: a parse cache is used only when its stored key and content checksum match — a cache
 * file of another dataset copied over this one's (same file count) or damaged on disk is parsed again.
 */
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRunContext } from '@cvdevkit/core';
import { fixtureDir, makeTempDir } from '@cvdevkit/test-utils';
import { readGroundTruthXml, readImageList, readSynsets } from '../src/index.js';

function twoDatasets() {
  const tmp = makeTempDir('ilsvrc-cache-trust-');
  const src = fixtureDir('ilsvrc2015/det_edge');
  cpSync(src, join(tmp, 'a'), { recursive: true });
  cpSync(src, join(tmp, 'b'), { recursive: true });
  // dataset b: every box of the first file one pixel wider (same files, same count)
  const f = join(tmp, 'b/Annotations', readdirSync(join(tmp, 'b/Annotations'))[0]);
  writeFileSync(f, readFileSync(f, 'utf8').replace(/<xmax>(\d+)<\/xmax>/g, (_m, v: string) => `<xmax>${Number(v) + 1}</xmax>`));
  return tmp;
}

async function read(tmp: string, which: string, cacheDir: string, logs: string[] = []) {
  const d = join(tmp, which);
  return readGroundTruthXml(join(d, 'Annotations'), readImageList(join(d, 'val.txt')), readSynsets(join(d, 'meta.mat')), createRunContext({ workers: 1, cacheDir, log: (m) => void logs.push(m) }));
}

describe('ILSVRC ground-truth parse cache (issue 25 item 2)', () => {
  it('a cache file of another dataset copied over this one is not used', async () => {
    const tmp = twoDatasets();
    const cacheDir = join(tmp, 'cache');
    const truthB = await read(tmp, 'b', join(tmp, 'nocache-unused'));
    await read(tmp, 'a', cacheDir);
    const aFile = readdirSync(cacheDir)[0];
    await read(tmp, 'b', cacheDir);
    const bFile = readdirSync(cacheDir).find((f) => f !== aFile)!;
    expect(bFile).toBeDefined();
    cpSync(join(cacheDir, aFile), join(cacheDir, bFile)); // the swap
    const logs: string[] = [];
    const b = await read(tmp, 'b', cacheDir, logs);
    expect(Array.from(b.boxes)).toEqual(Array.from(truthB.boxes));
    expect(logs.filter((m) => m.includes(bFile))).toHaveLength(1);
  });

  it('a damaged cache (one byte changed) is parsed again with one info line', async () => {
    const tmp = twoDatasets();
    const cacheDir = join(tmp, 'cache');
    const truth = await read(tmp, 'a', cacheDir);
    const file = join(cacheDir, readdirSync(cacheDir)[0]);
    const buf = readFileSync(file);
    buf[buf.length - 20] ^= 0x40;
    writeFileSync(file, buf);
    const logs: string[] = [];
    const again = await read(tmp, 'a', cacheDir, logs);
    expect(Array.from(again.boxes)).toEqual(Array.from(truth.boxes));
    expect(Array.from(again.imageWidth!)).toEqual(Array.from(truth.imageWidth!));
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(/checksum/);
  });
});
