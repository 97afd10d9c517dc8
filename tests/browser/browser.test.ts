/**
 * The HTML report of every installed task's fixture in a real browser (Debian's chromium driven by playwright-core):
 * no console error, no network request, every chart drawn with a size, one table row per class, sorting
 * works; a screenshot of each page goes to test-output/<name>.png (git-ignored) for a person to look at.
 */
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliBuilt, fixturePath, makeTempDir, removeTempDirs, REPO_ROOT } from '@cvdevkit/test-utils';
import type { BrowserContext } from 'playwright-core';
import { embeddedReport, FIXTURE_REPORTS, readHtml, writeFixtureReports, type FixtureReport } from './fixture-reports.js';
import { writeSyntheticJpegs } from './synthetic-images.js';

const VOC_MEDIUM = fixturePath('voc2010', 'medium');
/** Two images of aeroplane's top true positives: one left out of the folder, one not a JPEG (fallback + info diagnostic). */
const MISSING_IMAGE = '2010_000111';
const CORRUPT_IMAGE = '2010_000217';

/** `analyze voc2010/det --images <dir>` over synthetic JPEGs of the medium fixture's validation images. */
function cropsFixture(dir: string): FixtureReport {
  return { name: 'voc2010-det-analyze-crops', args: ['analyze', 'voc2010/det', '--root', VOC_MEDIUM, '--images', join(dir, 'JPEGImages'), '--no-cache'] };
}

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.log('skipped: no Chromium (install Debian\'s chromium package: apt-get install chromium)');

const SCREENSHOTS = join(REPO_ROOT, 'test-output');

describe.skipIf(!hasChromium || !cliBuilt)('HTML reports in Chromium', () => {
  let dir: string;
  let context: BrowserContext;
  let failures: string[] = [];

  beforeAll(async () => {
    dir = makeTempDir('cvdevkit-report-html-');
    mkdirSync(SCREENSHOTS, { recursive: true });
    const val = new Set(readFileSync(join(VOC_MEDIUM, 'VOC2010', 'ImageSets', 'Main', 'val.txt'), 'utf8').split(/\s+/).filter(Boolean));
    await writeSyntheticJpegs(join(VOC_MEDIUM, 'VOC2010', 'Annotations'), join(dir, 'JPEGImages'), { only: val, skip: [MISSING_IMAGE], corrupt: [CORRUPT_IMAGE] });
    const [{ chromium }, made] = await Promise.all([import('playwright-core'), writeFixtureReports(dir, [...FIXTURE_REPORTS, cropsFixture(dir)])]);
    failures = made;
    context = await chromium.launchPersistentContext(join(dir, 'profile'), {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1280, height: 900 },
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  }, 360_000); // every fixture report is a CLI run, two at a time

  afterAll(async () => {
    await context?.close();
    removeTempDirs();
  });

  it('every fixture report was written', () => {
    expect(failures).toEqual([]);
  });

  it('analyze with an images folder: top detections as crops (boxes drawn), fallbacks and info diagnostics, bounded size', async () => {
    const html = readHtml(dir, 'voc2010-det-analyze-crops');
    const size = statSync(join(dir, 'voc2010-det-analyze-crops.html')).size;
    expect(size).toBeLessThan(3 * 1024 * 1024);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    await page.goto(pathToFileURL(join(dir, 'voc2010-det-analyze-crops.html')).href);
    await page.waitForLoadState('load');
    const crops = await page.$$eval('figure.crop svg.crop', (svgs) =>
      svgs.map((s) => ({ w: s.getBoundingClientRect().width, href: s.querySelector('image')?.getAttribute('href') ?? '', det: s.querySelectorAll('rect.det').length, gt: s.querySelectorAll('rect.gt').length })),
    );
    expect(crops.length).toBeGreaterThan(100);
    expect(crops.length).toBeLessThanOrEqual(240);
    for (const c of crops) expect(c.href.startsWith('data:image/jpeg;base64,')).toBe(true);
    expect(crops.every((c) => c.det === 1)).toBe(true);
    expect(crops.filter((c) => c.gt === 1).length).toBeGreaterThan(crops.length / 2);
    // Every embedded crop is a JPEG the browser decodes, and the first class's crops are drawn with a size.
    const decoded = await page.$$eval('figure.crop svg.crop image', async (images) => {
      type Img = { src: string; decode(): Promise<void>; naturalWidth: number; naturalHeight: number };
      const ImageCtor = (globalThis as unknown as { Image: new () => Img }).Image;
      const sizes = await Promise.all(
        images.map(async (i) => {
          const img = new ImageCtor();
          img.src = i.getAttribute('href')!;
          await img.decode();
          return img.naturalWidth * img.naturalHeight;
        }),
      );
      return sizes.filter((n) => n > 0).length;
    });
    expect(decoded).toBe(crops.length);
    expect(crops[0].w).toBeGreaterThan(40);
    // The missing and the corrupt image: id and box instead, and one info diagnostic each.
    const fallbacks = await page.$$eval('details.top-class:first-of-type figure.crop.text', (f) => f.map((x) => x.textContent ?? ''));
    expect(fallbacks.some((t) => t.includes(MISSING_IMAGE))).toBe(true);
    expect(fallbacks.some((t) => t.includes(CORRUPT_IMAGE))).toBe(true);
    const infos = await page.$$eval('#diagnostics-table tbody tr', (rows) => rows.map((r) => r.textContent ?? '').filter((t) => t.includes('analysis/image-unavailable')));
    expect(infos).toHaveLength(2);
    expect(embeddedReport(html).rows).toHaveLength(20);
    await page.locator('#top').screenshot({ path: join(SCREENSHOTS, 'voc2010-det-analyze-crops.png') });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.locator('#top').screenshot({ path: join(SCREENSHOTS, 'voc2010-det-analyze-crops-dark.png') });
    await page.close();
    expect(problems).toEqual([]);
  });

  for (const fixture of FIXTURE_REPORTS) {
    it(`${fixture.name}: opens offline, charts drawn, table sortable`, async () => {
      const html = readHtml(dir, fixture.name);
      const report = embeddedReport(html);
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      await page.route('**/*', (route) => {
        const url = route.request().url();
        if (url.startsWith('file:') || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
        problems.push(`network request: ${url}`);
        return route.abort();
      });
      await page.goto(pathToFileURL(join(dir, `${fixture.name}.html`)).href);
      await page.waitForLoadState('load');

      const sizes = await page.$$eval('figure.chart svg', (svgs) => svgs.map((s) => s.getBoundingClientRect()).map((b) => [b.width, b.height]));
      expect(sizes.length).toBe(report.charts?.length ?? 0);
      expect(sizes.length).toBeGreaterThan(0);
      for (const [w, h] of sizes) expect(w * h).toBeGreaterThan(100);

      expect(await page.locator('#rows tbody tr').count()).toBe(report.rows.length);
      const header = page.locator('#rows thead th').nth(1);
      await header.click();
      expect(await header.getAttribute('aria-sort')).toBe('ascending');
      const values = await page.$$eval('#rows tbody tr', (rows) => rows.map((r) => r.children[1].getAttribute('data-value') ?? r.children[1].textContent ?? ''));
      const numeric = values.filter((v) => v !== '' && !Number.isNaN(Number(v))).map(Number);
      if (numeric.length === values.length) expect(numeric).toEqual([...numeric].sort((a, b) => a - b));
      await header.click();
      expect(await header.getAttribute('aria-sort')).toBe('descending');
      await header.click(); // back to ascending for the screenshot's table

      if (fixture.name === 'voc2010-det-analyze') {
        // the confusion matrix and the F1 curves: drawn, with their cells and lines, hover names on the cells
        const ids = ['detection-confusion', 'detection-confusion-top', 'f1-vs-threshold', 'f1-vs-threshold-per-class'];
        expect(report.charts?.map((c) => c.id)).toEqual(expect.arrayContaining(ids));
        for (const id of ids) {
          const box = await page.locator(`#chart-${id} svg`).boundingBox();
          expect(box!.width * box!.height, id).toBeGreaterThan(200 * 200);
        }
        const cells = await page.$$eval('#chart-detection-confusion svg path[aria-label], #chart-detection-confusion svg path title', (p) => p.map((x) => x.getAttribute('aria-label') ?? x.textContent ?? ''));
        expect(cells.some((t) => t.includes('ground truth person → missed'))).toBe(true);
        await page.locator('#chart-detection-confusion').screenshot({ path: join(SCREENSHOTS, 'voc2010-det-analyze-confusion.png') });
        await page.locator('#chart-f1-vs-threshold').screenshot({ path: join(SCREENSHOTS, 'voc2010-det-analyze-f1.png') });
      }
      await page.screenshot({ path: join(SCREENSHOTS, `${fixture.name}.png`), fullPage: true });
      if (fixture.name === 'voc2010-seg') {
        await page.emulateMedia({ colorScheme: 'dark' });
        await page.screenshot({ path: join(SCREENSHOTS, `${fixture.name}-dark.png`), fullPage: true });
      }
      await page.close();
      expect(problems).toEqual([]);
    });
  }
});
