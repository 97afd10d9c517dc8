import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** One object of a generated sample annotation. */
export interface SampleObject {
  wnid: string;
  box: [number, number, number, number];
  generated?: boolean;
  trackid?: number;
}

/** An ILSVRC-style annotation XML (tab-indented, tags in the real files' order). */
export function annotationXml(folder: string, filename: string, objects: SampleObject[], vid = false): string {
  const s = ['<annotation>', `\t<folder>${folder}</folder>`, `\t<filename>${filename}</filename>`, '\t<source>', '\t\t<database>ILSVRC_2015</database>', '\t</source>', '\t<size>', '\t\t<width>500</width>', '\t\t<height>375</height>', '\t</size>'];
  for (const o of objects) {
    s.push('\t<object>');
    if (vid) s.push(`\t\t<trackid>${o.trackid ?? 0}</trackid>`);
    s.push(`\t\t<name>${o.wnid}</name>`, '\t\t<bndbox>');
    const [x1, y1, x2, y2] = o.box;
    s.push(`\t\t\t<xmin>${x1}</xmin>`, `\t\t\t<xmax>${x2}</xmax>`, `\t\t\t<ymin>${y1}</ymin>`, `\t\t\t<ymax>${y2}</ymax>`, '\t\t</bndbox>');
    if (vid) s.push('\t\t<occluded>0</occluded>', `\t\t<generated>${o.generated ? 1 : 0}</generated>`);
    s.push('\t</object>');
  }
  s.push('</annotation>');
  return s.join('\n') + '\n';
}

/** Writes a text file, creating its directory. */
export function writeText(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}
