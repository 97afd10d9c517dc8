/**
 * `analyze --images` through the built binary (issue 25): the VOC default images folder is
 * `<root>/VOC2010/JPEGImages` (item 16), and a folder of SVGs named `.jpg` is refused quickly (item 8).
 */
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliBuilt, fixturePath, makeTempDir, runCli } from '@cvdevkit/test-utils';

const MEDIUM = fixturePath('voc2010/medium');
const SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="4000"><filter id="f"><feTurbulence baseFrequency="0.9" numOctaves="10"/></filter><rect width="4000" height="4000" filter="url(#f)"/></svg>`;

/** A devkit root whose VOC2010/ holds the medium fixture's annotations and sets, and a JPEGImages/ of SVGs named `<id>.jpg`. */
function rootWithSvgImages(): string {
  const root = makeTempDir('cvdevkit-analyze-images-');
  const data = join(root, 'VOC2010');
  mkdirSync(join(data, 'JPEGImages'), { recursive: true });
  for (const d of ['Annotations', 'ImageSets']) symlinkSync(join(MEDIUM, 'VOC2010', d), join(data, d));
  symlinkSync(join(MEDIUM, 'results'), join(root, 'results'));
  for (const f of readdirSync(join(MEDIUM, 'VOC2010', 'Annotations'))) writeFileSync(join(data, 'JPEGImages', `${basename(f, '.xml')}.jpg`), SVG);
  return root;
}

describe.skipIf(!cliBuilt)('analyze --images (built CLI)', () => {
  it('the default images folder is <root>/VOC2010/JPEGImages; SVGs named .jpg are refused, not rendered', () => {
    const root = rootWithSvgImages();
    const json = runCli(['analyze', 'voc2010/det', '--root', root, '--only', 'top', '--top', '2', '--no-cache', '--format', 'json']);
    expect(json.status, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout).extra.imagesDir).toBe(join(root, 'VOC2010', 'JPEGImages'));
    const t0 = Date.now();
    const html = runCli(['analyze', 'voc2010/det', '--root', root, '--only', 'top', '--top', '2', '--no-cache', '--format', 'html'], { timeoutMs: 30_000 });
    expect(html.status, html.stderr).toBe(0);
    expect(html.stdout).toMatch(/not a JPEG or PNG \(found an SVG, XML or HTML file\)/);
    expect(Date.now() - t0).toBeLessThan(15_000);
  });
});
