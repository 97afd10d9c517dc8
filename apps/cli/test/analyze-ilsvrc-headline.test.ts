/**
 * ILSVRC `analyze` (issue 25 item 19): its headline is eval's (`meanAP` and `medianAP`, bit-identical), and
 * Hoiem's Sim column says why it is always 0 (ILSVRC defines no similar-class groups).
 */
import { describe, expect, it } from 'vitest';
import { cliBuilt, fixturePath, runCli } from '@cvdevkit/test-utils';

const D = fixturePath('ilsvrc2015/det_edge');
const inputs = ['--pred', `${D}/pred.txt`, '--list', `${D}/val.txt`, '--meta', `${D}/meta.mat`, '--gt', `${D}/Annotations`, '--no-cache', '--format', 'json', '-q'];

describe.skipIf(!cliBuilt)('analyze ilsvrc2015/det headline (built CLI)', () => {
  it('meanAP and medianAP as eval gives them; Sim explained', () => {
    const ev = runCli(['eval', 'ilsvrc2015/det', ...inputs]);
    expect(ev.status, ev.stderr).toBe(0);
    const an = runCli(['analyze', 'ilsvrc2015/det', ...inputs, '--only', 'hoiem']);
    expect(an.status, an.stderr).toBe(0);
    const e = JSON.parse(ev.stdout).summary;
    const a = JSON.parse(an.stdout);
    expect(Object.keys(a.summary).slice(0, 2)).toEqual(['meanAP', 'medianAP']);
    expect(a.summary.mAP).toBeUndefined();
    expect(Object.is(a.summary.meanAP, e.meanAP) && Object.is(a.summary.medianAP, e.medianAP)).toBe(true);
    expect(a.extra.fields.Sim.description).toMatch(/always 0.*no similar-class groups/);
  });
});
