import { createReport } from '@cvdevkit/core';
import { describe, expect, it } from 'vitest';
import { gunzipSync } from 'node:zlib';
import { addSvgTitles, escapeHtml, prefixSvgIds } from './escape.js';
import { buildHtmlPage } from './page.js';
import { renderReportHtml, renderReportsHtml } from './report-page.js';

const report = createReport({
  task: 'x/det',
  metric: 'ap',
  summary: { mAP: 0.25, images: 12 },
  rows: [
    { key: '<script>alert(1)</script>', ap: 0.5 },
    { key: 'b', ap: NaN },
  ],
  curves: [{ key: '<script>alert(1)</script>', recall: [0.5, 1], precision: [1, 0.5] }],
  diagnostics: [{ severity: 'warning', code: 'task/log', message: 'odd <thing>', file: '/a/b.txt', line: 3 }],
});

describe('buildHtmlPage', () => {
  it('is one self-contained document: no external reference, a strict content policy, sections in the contents', () => {
    const html = buildHtmlPage({ title: 'T <1>', sections: [{ id: 's1', title: 'One', html: '<p>x</p>' }] });
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<title>T &lt;1&gt;</title>');
    expect(html).toContain("default-src 'none'");
    expect(html).toContain('<a href="#s1">One</a>');
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
  });
});

describe('addSvgTitles', () => {
  it('turns the aria-label of a labelled mark into a <title> (hover without JavaScript)', () => {
    expect(addSvgTitles('<path aria-label="a → b: 3" role="graphics-symbol" d="M0,0"/><path aria-hidden="true" d=""/>')).toBe(
      '<path aria-label="a → b: 3" role="graphics-symbol" d="M0,0"><title>a → b: 3</title></path><path aria-hidden="true" d=""/>',
    );
  });
});

describe('prefixSvgIds', () => {
  it('renames ids and their references', () => {
    expect(prefixSvgIds('<clipPath id="clip1"/><g clip-path="url(#clip1)"/><use href="#clip1"/>', 'c3')).toBe(
      '<clipPath id="c3-clip1"/><g clip-path="url(#c3-clip1)"/><use href="#c3-clip1"/>',
    );
  });
});

describe('renderReportHtml', () => {
  it('escapes every value from the inputs, embeds the JSON report with its charts, lists diagnostics', async () => {
    const html = await renderReportHtml(report, { protocol: { date: '2026-01-02T03:04:05Z', options: { root: '/data/voc', set: 'val' } } });
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('odd &lt;thing&gt;');
    expect(html).toContain('<code>/a/b.txt:3</code>');
    expect(html).toContain('<code>--set val</code>');
    expect(html).toContain('2026-01-02T03:04:05Z');
    const gz = /href="data:application\/gzip;base64,([^"]+)"/.exec(html)![1];
    const embedded = JSON.parse(gunzipSync(Buffer.from(gz, 'base64')).toString('utf8'));
    expect(embedded.schema).toBe('cvdevkit.report/1');
    expect(embedded.rows[1].ap).toBeNull();
    expect(embedded.charts.map((c: { id: string }) => c.id)).toEqual(['pr-curves', 'pr-curves-per-class', 'ap-per-class']);
    expect((html.match(/<figure class="chart"/g) ?? []).length).toBe(3);
    // exact value for sorting, 4 decimals for reading
    expect(html).toContain('<td class="num" data-value="0.5" title="0.5">0.5000</td>');
  });

  it('several reports on one page: unique ids', async () => {
    const html = await renderReportsHtml([report, { ...report, task: 'y/det' }]);
    const ids = [...html.matchAll(/\bid="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(html).toContain('y/det: Charts');
  });

  it('several reports on one page: the contents grouped by dataset, a line per task with its sections', async () => {
    const html = await renderReportsHtml([
      { ...report, dataset: 'voc', task: 'voc/det' },
      { ...report, task: 'toy/bbox' },
      { ...report, dataset: 'voc', task: 'voc/cls' },
    ]);
    const nav = /<nav class="toc grouped" aria-label="Contents">(.*?)<\/nav>/s.exec(html)![1];
    const groups = [...nav.matchAll(/<div class="toc-heading">([^<]*)<\/div>/g)].map((m) => m[1]);
    expect(groups).toEqual(['voc', 'toy']);
    const lines = [...nav.matchAll(/<li><span class="toc-label">([^<]*)<\/span>/g)].map((m) => m[1]);
    expect(lines).toEqual(['voc/det', 'voc/cls', 'toy/bbox']);
    // the links name the section without repeating the task, and every section has one
    expect(nav).toContain('<a href="#r1-voc-det-charts">Charts</a>');
    expect(nav).not.toContain('voc/det: Charts');
    const sectionIds = [...html.matchAll(/<section id="([^"]+)"/g)].map((m) => m[1]);
    const linked = [...nav.matchAll(/href="#([^"]+)"/g)].map((m) => m[1]);
    expect(linked).toEqual(sectionIds);
  });
});

describe('escapeHtml', () => {
  it('escapes the five characters', () => expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;'));
});
