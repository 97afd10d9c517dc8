/** Segmentation results: indexed PNGs with the VOC colour map (what `imwrite(im, VOClabelcolormap, file)` writes). */
import { dirname, join } from 'node:path';
import { ensureOutputDir } from '@cvdevkit/formats';
import { encodeIndexedPng, vocColormap, writeIndexedPng, type IndexedImageInput } from '@cvdevkit/formats/png';

/** The 256 VOC colours (label images use the Up filter: their rows repeat, so it compresses them well). */
const VOC_PALETTE = vocColormap(256);

/** `<results>/Segmentation/<comp>_<set>_cls/<id>.png` (`VOCopts.seg.clsrespath`). */
export function segmentationResultPath(resultsDir: string, comp: string, set: string, id: string): string {
  return join(resultsDir, 'Segmentation', `${comp}_${set}_cls`, `${id}.png`);
}

/** The PNG bytes of a label image (values 0..255; results must use 0..20). */
export function encodeSegmentation(labels: IndexedImageInput): Buffer {
  return encodeIndexedPng(labels, { palette: VOC_PALETTE, filterType: 2 });
}

/** Writes a label image as an indexed PNG with the VOC colours, creating the folder. */
export async function writeSegmentation(file: string, labels: IndexedImageInput): Promise<void> {
  await ensureOutputDir(dirname(file), 'segmentation results');
  await writeIndexedPng(file, labels, { palette: VOC_PALETTE, filterType: 2 });
}
