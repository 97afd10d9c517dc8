import { fileURLToPath } from 'node:url';
/** Reads the real ILSVRC2015 devkit files and the ADE20K boundary fixtures (Octave and MATLAB layouts). */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  matNumbers,
  matScalar,
  matString,
  packNumbers,
  readMatFileSync,
  sparseNonzeros,
  type MatCell,
  type MatNumeric,
  type MatSparse,
  type MatStruct,
} from '../src/index.js';

const REAL = fileURLToPath(new URL('../../../fixtures/ilsvrc2015/real', import.meta.url));
const ADE = fileURLToPath(new URL('../../../fixtures/ade20k', import.meta.url));

describe.skipIf(!existsSync(REAL))('ILSVRC2015 devkit files', () => {
  it('meta_det.mat: 1x200 synsets', () => {
    const s = readMatFileSync(join(REAL, 'meta_det.mat')).synsets as MatStruct;
    expect(s.kind).toBe('struct');
    expect(s.dims).toEqual([1, 200]);
    expect(s.fieldNames).toEqual(['ILSVRC2015_DET_ID', 'WNID', 'name', 'description']);
    expect(matScalar(s.get(0, 'ILSVRC2015_DET_ID'))).toBe(1);
    expect(matString(s.get(0, 'WNID'))).toBe('n02672831');
    expect(matString(s.get(0, 'name'))).toBe('accordion');
    const ids = s.column('ILSVRC2015_DET_ID').map((v) => matScalar(v));
    expect(ids.length).toBe(200);
  });

  it('meta_clsloc.mat 1x1000 with num_train_images, meta_vid.mat 1x30', () => {
    const c = readMatFileSync(join(REAL, 'meta_clsloc.mat')).synsets as MatStruct;
    expect(c.dims).toEqual([1, 1000]);
    expect(c.fieldNames).toContain('num_train_images');
    expect(matScalar(c.get(0, 'num_train_images'))).toBeGreaterThan(0);
    const v = readMatFileSync(join(REAL, 'meta_vid.mat')).synsets as MatStruct;
    expect(v.dims).toEqual([1, 30]);
  });

  it('det validation ground truth: 20121 images, 55,502 boxes', () => {
    const m = readMatFileSync(join(REAL, 'ILSVRC2015_det_validation_ground_truth.mat'));
    const ids = m.gt_img_ids as MatNumeric;
    // MATLAB class double, stored on disk as miUINT16 (what scipy.io.loadmat shows).
    expect(ids.class).toBe('double');
    expect(ids.stored).toBe('uint16');
    expect(ids.dims).toEqual([20121, 1]);
    for (const k of ['gt_obj_labels', 'gt_obj_bboxes', 'gt_obj_thr']) expect((m[k] as MatCell).dims).toEqual([1, 20121]);
    const boxes = (m.gt_obj_bboxes as MatCell).cells;
    let n = 0;
    for (const b of boxes) n += b.dims[0] === 4 ? b.dims[1] : 0;
    expect(n).toBe(55502);
    const packed = packNumbers(readMatFileSync(join(REAL, 'ILSVRC2015_det_validation_ground_truth.mat')).gt_obj_bboxes as MatCell);
    expect(packed.values.length).toBe(4 * 55502);
    let labels = 0;
    for (const l of (m.gt_obj_labels as MatCell).cells) labels += matNumbers(l).length;
    expect(labels).toBe(55502);
    const npc = m.num_pos_per_class as MatNumeric;
    expect(npc.stored).toBe('uint16');
    expect(npc.dims).toEqual([1, 200]);
  });

  it('clsloc validation ground truth: rec 1x50000 with objects', () => {
    const rec = readMatFileSync(join(REAL, 'ILSVRC2015_clsloc_validation_ground_truth.mat')).rec as MatStruct;
    expect(rec.dims).toEqual([1, 50000]);
    expect(rec.fieldNames).toEqual(['objects']);
    const o = rec.get(0, 'objects') as MatStruct;
    expect(o.fieldNames).toEqual(['label', 'bbox']);
    expect(matScalar(o.get(0, 'label'))).toBe(490);
    expect(Array.from(matNumbers(o.get(0, 'bbox')))).toEqual([111, 108, 441, 193]);
    let objects = 0;
    for (const v of rec.column('objects')) objects += (v as MatStruct).length;
    expect(objects).toBeGreaterThan(50000);
  });

  it('vid validation ground truth (whole): int32-stored gt_img_ids 176126x1, 273,505 boxes', () => {
    const m = readMatFileSync(join(REAL, 'ILSVRC2015_vid_validation_ground_truth_whole.mat'));
    const ids = m.gt_img_ids as MatNumeric;
    expect(ids.dims).toEqual([176126, 1]);
    expect(ids.stored).toBe('int32');
    const packed = packNumbers(m.gt_obj_bboxes as MatCell);
    expect(packed.offsets.length).toBe(176127);
    expect(packed.values.length).toBe(4 * 273505);
    let n = 0;
    for (const b of (m.gt_obj_bboxes as MatCell).cells) n += b.dims[0] === 4 ? b.dims[1] : 0;
    expect(n).toBe(273505);
    // Packed and decoded agree.
    const cells = (m.gt_obj_bboxes as MatCell).cells;
    const k = 12345;
    expect(Array.from(matNumbers(cells[k]))).toEqual(Array.from(packed.values.subarray(packed.offsets[k], packed.offsets[k + 1])));
  });

  it('variables option decodes only the named variables', () => {
    const m = readMatFileSync(join(REAL, 'ILSVRC2015_vid_validation_ground_truth_whole.mat'), { variables: ['num_pos_per_class'] });
    expect(Object.keys(m)).toEqual(['num_pos_per_class']);
    expect((m.num_pos_per_class as MatNumeric).dims).toEqual([1, 30]);
  });
});

interface Expected {
  seg_shape: number[];
  seg_dtype: string;
  bdry_cells: number[];
  bdry_nnz: Record<string, number>;
  seg_sum_ch1: number;
  header: string;
}

function matFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) out.push(...matFiles(p));
    else if (e.endsWith('.mat')) out.push(p);
  }
  return out.sort();
}

describe.skipIf(!existsSync(ADE))('ADE20K boundary fixtures (Octave -v6/-v7, MATLAB sparse logical -v7/-v6)', () => {
  const expected = JSON.parse(readFileSync(join(ADE, 'mat_contents.json'), 'utf8')) as Record<string, Expected>;
  const files = existsSync(ADE) ? matFiles(ADE) : [];
  const decoded = new Map<string, { seg: MatNumeric; bdry: MatSparse[] }>();

  it('finds the fixture files', () => {
    expect(files.length).toBeGreaterThanOrEqual(15);
  });

  it.each(files.map((f) => [relative(ADE, f), f]))('%s', (rel, file) => {
    const want = expected[rel];
    const gt = readMatFileSync(file).gt as MatStruct;
    expect(gt.kind).toBe('struct');
    const seg = gt.get(0, 'seg') as MatNumeric;
    const bdry = gt.get(0, 'bdry') as MatCell;
    const sparse = bdry.cells as MatSparse[];
    decoded.set(rel, { seg, bdry: sparse });
    if (!want) return; // a file not listed in mat_contents.json: decoding without error is the test
    expect(seg.dims).toEqual(want.seg_shape);
    expect(seg.class).toBe(want.seg_dtype);
    const plane = want.seg_shape[0] * want.seg_shape[1];
    let sum = 0;
    for (let i = 0; i < plane; i++) sum += (seg.data as Uint8Array)[i];
    expect(sum).toBe(want.seg_sum_ch1);
    expect(bdry.dims).toEqual(want.bdry_cells);
    const nnz: Record<string, number> = {};
    sparse.forEach((s, i) => {
      expect(s.kind).toBe('sparse');
      expect(s.dims).toEqual([want.seg_shape[0], want.seg_shape[1]]);
      let n = 0;
      for (let k = 0; k < s.nnz; k++) if (s.data[k] !== 0) n++;
      if (n > 0) nnz[String(i + 1)] = n;
    });
    expect(nnz).toEqual(want.bdry_nnz);
  });

  it('Octave and MATLAB copies hold identical boundaries', () => {
    let compared = 0;
    for (const [rel, v] of decoded) {
      if (!rel.includes('annotations_boundary_matlab')) continue;
      const octave = decoded.get(rel.replace(/annotations_boundary_matlab(_v6)?/, 'annotations_boundary'));
      if (!octave) continue;
      expect(Array.from(v.seg.data as Uint8Array)).toEqual(Array.from(octave.seg.data as Uint8Array));
      v.bdry.forEach((s, i) => {
        const o = octave.bdry[i];
        expect(s.logical).toBe(true);
        const a = sparseNonzeros(s);
        const b = sparseNonzeros(o);
        expect(Array.from(a.rows)).toEqual(Array.from(b.rows));
        expect(Array.from(a.cols)).toEqual(Array.from(b.cols));
        expect(Array.from(a.values)).toEqual(Array.from(b.values));
      });
      compared++;
    }
    expect(compared).toBeGreaterThanOrEqual(9);
  });
});
