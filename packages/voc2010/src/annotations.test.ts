import { rm, utimes, writeFile } from 'node:fs/promises';
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DevkitError, ProblemCollector, createRunContext } from '@cvdevkit/core';
import { parseVocRecord, readRecordBatch, readVocRecords } from './annotations.js';
import { fileIn } from './voc-options.js';
import { makeTempDir } from '@cvdevkit/test-utils';

const ANN = (objects: string): string =>
  `<annotation>\n\t<folder>VOC2010</folder>\n\t<filename>x.jpg</filename>\n\t<size>\n\t\t<width>100</width>\n\t\t<height>80</height>\n\t\t<depth>3</depth>\n\t</size>\n\t<segmented>0</segmented>\n${objects}</annotation>\n`;
const OBJ = (name: string, box: string, extra = ''): string =>
  `\t<object>\n\t\t<name>${name}</name>\n\t\t<pose>Unspecified</pose>\n\t\t<truncated>0</truncated>\n\t\t<difficult>${extra === 'difficult' ? 1 : 0}</difficult>\n\t\t<bndbox>${box}</bndbox>\n\t</object>\n`;
const BOX = (a: number | string, b: number, c: number, d: number): string => `<xmin>${a}</xmin><ymin>${b}</ymin><xmax>${c}</xmax><ymax>${d}</ymax>`;

describe('parseVocRecord', () => {
  it('reads objects, flags, fractional boxes and parts', () => {
    const r = parseVocRecord(
      ANN(OBJ('car', BOX('10.5', 2, 30, 40)) + OBJ('dog', BOX(1, 1, 2, 2), 'difficult') +
        '\t<object><name>person</name><bndbox>' + BOX(1, 1, 50, 50) + '</bndbox><part><name>head</name><bndbox>' + BOX(5, 5, 9, 9) + '</bndbox></part></object>\n'),
      'a.xml',
    );
    expect(r.objects.map((o) => [o.name, o.difficult, o.bbox])).toEqual([
      ['car', false, [10.5, 2, 30, 40]],
      ['dog', true, [1, 1, 2, 2]],
      ['person', false, [1, 1, 50, 50]],
    ]);
    expect(r.objects[0].pose).toBe('');
    expect(r.objects[2].parts).toEqual([{ name: 'head', bbox: [5, 5, 9, 9] }]);
  });

  it('rejects objects without a name or a numeric box, naming the field', () => {
    try {
      parseVocRecord(ANN(OBJ('car', BOX('x', 2, 30, 40)) + OBJ('', BOX(1, 1, 2, 2))), 'b.xml');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(DevkitError);
      expect((e as DevkitError).problems.map((p) => p.field)).toEqual(['object[1].bndbox.xmin', 'object[2].name']);
      expect((e as DevkitError).file).toBe('b.xml');
      expect((e as DevkitError).problems[0].file).toBe('b.xml');
    }
  });

  it('accepts an annotation without objects', () => {
    expect(parseVocRecord(ANN(''), 'c.xml').objects).toEqual([]);
  });
});

describe('readRecordBatch (the fast path for listed files)', () => {
  it('gives the ordinary reader\'s records and messages, file by file', async () => {
    const dir = makeTempDir('voc-fast-');
    try {
      const texts = [
        ANN(OBJ('car', BOX('10.5', 2, 30, 40)) + OBJ('dog', BOX(1, 1, 2, 2), 'difficult')),
        ANN(''),
        ANN(OBJ('car', BOX('x', 2, 30, 40)) + OBJ('', BOX(1, 1, 2, 2))),
        '<?xml version="1.0"?>' + ANN(OBJ('cat', BOX(1, 2, 3, 4))),
        '<annotation><object><name>a</name></annotation>',
        '',
      ];
      const paths = texts.map((t, i) => {
        writeFileSync(join(dir, `${i}.xml`), t);
        return fileIn(dir, `${i}.xml`);
      });
      paths.push(join(dir, 'missing.xml'));
      const fast = readRecordBatch(paths, dir);
      const ordinary = readRecordBatch(paths);
      expect(JSON.stringify(fast)).toBe(JSON.stringify(ordinary));
      expect(fast.map((r) => ('record' in r ? 'record' : r.problems[0].code))).toEqual(['record', 'record', 'input/annotation', 'record', 'input/xml', 'input/xml', 'input/missing-file']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('fileIn is join for a name without separators, and join otherwise', () => {
    for (const name of ['a.xml', '.xml', '..xml', 'a b.png']) expect(fileIn('/x/y', name)).toBe(join('/x/y', name));
    for (const name of ['a/b.xml', '../a.xml', '']) expect(fileIn('/x/y', name)).toBe(join('/x/y', name));
    expect(fileIn('/', 'a.xml')).toBe('/a.xml');
  });
});

describe('readVocRecords with a cache', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('reuses parsed records and re-reads a file whose size or mtime changed', async () => {
    const dir = makeTempDir('voc-anno-');
    dirs.push(dir);
    const cacheDir = join(dir, 'cache');
    await writeFile(join(dir, 'a.xml'), ANN(OBJ('car', BOX(1, 1, 10, 10))));
    await writeFile(join(dir, 'b.xml'), ANN(OBJ('dog', BOX(1, 1, 10, 10))));
    const opts = { annotationsDir: dir, path: (id: string) => join(dir, `${id}.xml`) };
    const ctx = createRunContext({ workers: 1, cacheDir });
    const first = await readVocRecords(['a', 'b'], opts, ctx, new ProblemCollector());
    expect(first.map((r) => r!.objects[0].name)).toEqual(['car', 'dog']);
    // Same content size, new mtime: re-read.
    await writeFile(join(dir, 'a.xml'), ANN(OBJ('cat', BOX(1, 1, 10, 10))));
    await utimes(join(dir, 'a.xml'), new Date(), new Date(Date.now() + 5000));
    const second = await readVocRecords(['a', 'b'], opts, ctx, new ProblemCollector());
    expect(second.map((r) => r!.objects[0].name)).toEqual(['cat', 'dog']);
  });

  it('a damaged or swapped cache is parsed again with one info line (issue 25 item 2)', async () => {
    const dir = makeTempDir('voc-anno-');
    const other = makeTempDir('voc-anno-other-');
    const cacheDir = join(dir, 'cache');
    await writeFile(join(dir, 'a.xml'), ANN(OBJ('car', BOX(1, 1, 10, 10))));
    await writeFile(join(other, 'a.xml'), ANN(OBJ('car', BOX(2, 2, 10, 10))));
    const opts = (d: string) => ({ annotationsDir: d, path: (id: string) => join(d, `${id}.xml`) });
    const logs: string[] = [];
    const ctx = createRunContext({ workers: 1, cacheDir, log: (m) => void logs.push(m) });
    await readVocRecords(['a'], opts(dir), ctx, new ProblemCollector());
    const [file] = readdirSync(cacheDir);
    // the same length, another number: only a checksum notices
    writeFileSync(join(cacheDir, file), readFileSync(join(cacheDir, file), 'utf8').replace('"bbox":[1,1,10,10]', '"bbox":[9,1,10,10]'));
    const again = await readVocRecords(['a'], opts(dir), ctx, new ProblemCollector());
    expect(again[0]!.objects[0].bbox).toEqual([1, 1, 10, 10]);
    expect(logs).toHaveLength(1);
    // another folder's cache copied over this one's
    await readVocRecords(['a'], opts(other), ctx, new ProblemCollector());
    const otherFile = readdirSync(cacheDir).find((f) => f !== file && !f.endsWith('.tmp'))!;
    copyFileSync(join(cacheDir, file), join(cacheDir, otherFile));
    const swapped = await readVocRecords(['a'], opts(other), ctx, new ProblemCollector());
    expect(swapped[0]!.objects[0].bbox).toEqual([2, 2, 10, 10]);
  });

  it('onRecord gets every good record in image order, read here, by workers, into or from the cache', async () => {
    const dir = makeTempDir('voc-anno-');
    dirs.push(dir);
    const ids = ['a', 'bad', 'b', 'c', 'd'];
    for (const [i, id] of ids.entries()) await writeFile(join(dir, `${id}.xml`), id === 'bad' ? '<annotation>' : ANN(OBJ(id, BOX(i + 1, 1, 10, 10))));
    const opts = { annotationsDir: dir, path: (id: string) => join(dir, `${id}.xml`) };
    const cacheDir = join(dir, 'cache');
    // a set with a bad file is never cached; the good set is written to the cache, then read from it
    for (const set of [ids, ids.filter((id) => id !== 'bad')]) {
      const want = await readVocRecords(set, opts, createRunContext({ workers: 1 }), new ProblemCollector());
      for (const ctx of [createRunContext({ workers: 1 }), createRunContext({ workers: 2 }), createRunContext({ workers: 1, cacheDir }), createRunContext({ workers: 1, cacheDir })]) {
        const seen: Array<[number, unknown]> = [];
        const p = new ProblemCollector();
        const out = await readVocRecords(set, { ...opts, onRecord: (i, r) => void seen.push([i, r]) }, ctx, p);
        expect(seen).toEqual(want.flatMap((r, i) => (r ? [[i, r]] : [])));
        expect(out.every((r) => r === undefined)).toBe(true);
        expect(p.problems.map((q) => q.file)).toEqual(set.includes('bad') ? [join(dir, 'bad.xml')] : []);
      }
    }
    expect(readdirSync(cacheDir).filter((f) => !f.endsWith('.tmp'))).toHaveLength(1);
  });

  it('a cached line that is not a record is read from its file again', async () => {
    const dir = makeTempDir('voc-anno-');
    dirs.push(dir);
    const cacheDir = join(dir, 'cache');
    await writeFile(join(dir, 'a.xml'), ANN(OBJ('car', BOX(1, 1, 10, 10))));
    await writeFile(join(dir, 'b.xml'), ANN(OBJ('dog', BOX(2, 2, 10, 10))));
    const opts = { annotationsDir: dir, path: (id: string) => join(dir, `${id}.xml`) };
    const logs: string[] = [];
    const ctx = createRunContext({ workers: 1, cacheDir, log: (m) => void logs.push(m) });
    const want = await readVocRecords(['a', 'b'], opts, ctx, new ProblemCollector());
    const [file] = readdirSync(cacheDir);
    const text = readFileSync(join(cacheDir, file), 'latin1');
    const at = text.indexOf('{"objects"', text.indexOf('{"objects"') + 1);
    // the second record's line broken, its checksum mended: the cache is read, the line is not a record
    const broken = text.slice(0, at) + '[' + text.slice(at + 1);
    const { createHash } = await import('node:crypto');
    const oldSum = createHash('sha256').update(text.slice(text.indexOf('\n{"objects"') + 1), 'latin1').digest('hex');
    const newSum = createHash('sha256').update(broken.slice(broken.indexOf('\n{"objects"') + 1), 'latin1').digest('hex');
    writeFileSync(join(cacheDir, file), broken.replace(oldSum, newSum), 'latin1');
    const p = new ProblemCollector();
    expect(await readVocRecords(['a', 'b'], opts, ctx, p)).toEqual(want);
    expect(p.size).toBe(0);
    expect(logs).toEqual([]); // the cache was taken (a checksum mismatch would say so)
    const spied: Array<[number, string]> = [];
    await readVocRecords(['a', 'b'], { ...opts, onRecord: (i, r) => void spied.push([i, r.objects[0].name]) }, ctx, new ProblemCollector());
    expect(spied).toEqual([[0, 'car'], [1, 'dog']]);
  });

  it('collects the problems of every bad file', async () => {
    const dir = makeTempDir('voc-anno-');
    dirs.push(dir);
    await writeFile(join(dir, 'bad.xml'), '<annotation><object></annotation>');
    const p = new ProblemCollector();
    const out = await readVocRecords(['bad', 'missing'], { annotationsDir: dir, path: (id) => join(dir, `${id}.xml`) }, createRunContext({ workers: 1 }), p);
    expect(out).toEqual([undefined, undefined]);
    expect(p.problems.map((q) => q.code)).toEqual(['input/xml', 'input/missing-file']);
  });
});
