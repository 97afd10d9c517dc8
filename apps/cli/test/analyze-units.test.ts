/**
 * TIDE's units (issue 25 item 19) and the per-class headers' tooltips (item 21): `official` mode gives AP
 * fractions, `tide` mode AP points ×100 as TIDE prints them; the table, the Markdown, the page's tiles and
 * its table headers all say which. Through the built binary on the VOC `medium` fixture.
 */
import { describe, expect, it } from 'vitest';
import { cliBuilt, fixturePath, runCli } from '@cvdevkit/test-utils';

const ROOT = fixturePath('voc2010/medium');
const run = (...args: string[]) => runCli(['analyze', 'voc2010/det', '--root', ROOT, '--only', 'hoiem,tide', '--no-cache', ...args]);

describe.skipIf(!cliBuilt)('analyze: units and column help (built CLI)', () => {
  it('the table and Markdown name the TIDE unit of each mode; the numbers are each mode\'s own', () => {
    const official = run();
    expect(official.status, official.stderr).toBe(0);
    expect(official.stdout).toMatch(/^tide\.Cls\s+\S+\s+AP \(0–1\)$/m);
    expect(official.stdout).toMatch(/units: .*dCls, dLoc, dBoth, dDupe, dBkg, dMiss: AP \(0–1\)/);
    const tide = run('--tide-mode', 'tide');
    expect(tide.stdout).toMatch(/^tide\.Cls\s+\S+\s+AP points \(×100, as TIDE prints them\)$/m);
    const md = run('--tide-mode', 'tide', '--format', 'markdown');
    expect(md.stdout).toMatch(/\| tide\.Cls \| [^|]+ \| AP points \(×100, as TIDE prints them\) \|/);
    const json = JSON.parse(run('--tide-mode', 'tide', '--format', 'json').stdout);
    expect(json.extra.fields['tide.Cls'].unit).toBe('AP points (×100, as TIDE prints them)');
    expect(json.extra.fields.apn.description).toMatch(/normali[sz]ed/);
  });

  it('the page shows the unit on the TIDE tiles and explains apn, Loc and dCls in the table headers', () => {
    const page = run('--tide-mode', 'tide', '--format', 'html').stdout;
    expect(page).toMatch(/<div class="label">tide\.Cls<\/div><div class="value"[^>]*>[^<]+<\/div><div class="unit">AP points \(×100, as TIDE prints them\)<\/div>/);
    for (const col of ['apn', 'Loc', 'dCls']) expect(page).toMatch(new RegExp(`<th scope="col" class="num" title="[^"]{10,}">${col}</th>`));
  });
});
