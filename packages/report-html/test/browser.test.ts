/**
 * The HTML report of every task's fixture in a real browser (Debian's chromium driven by playwright-core):
 * no console error, no network request, every chart drawn with a size, one table row per class, sorting
 * works; a screenshot of each page goes to test-output/<name>.png (git-ignored) for a person to look at.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliBuilt, makeTempDir, removeTempDirs, REPO_ROOT } from '@cvdevkit/test-utils';
import type { BrowserContext } from 'playwright-core';
import { embeddedReport, FIXTURE_REPORTS, readHtml, writeFixtureReports } from './fixture-reports.js';

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
    const [{ chromium }, made] = await Promise.all([import('playwright-core'), writeFixtureReports(dir)]);
    failures = made;
    context = await chromium.launchPersistentContext(join(dir, 'profile'), {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1280, height: 900 },
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  });

  afterAll(async () => {
    await context?.close();
    removeTempDirs();
  });

  it('every fixture report was written', () => {
    expect(failures).toEqual([]);
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
