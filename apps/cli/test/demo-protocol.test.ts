// `demo` without --dir: the page's protocol says that the sample's temporary folder was removed (issue 25 item 21).
import { describe, expect, it } from 'vitest';
import { cliBuilt, runCli } from '@cvdevkit/test-utils';

describe.skipIf(!cliBuilt)('demo page protocol (built CLI)', () => {
  it('names the temporary sample folder as removed after the run', () => {
    const r = runCli(['demo', 'voc2010/cls', '--format', 'html', '--no-cache', '-q']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/<th scope="row">inputs<\/th><td><span class="muted">the embedded sample, written to the temporary folder \S*cvdevkit-demo-\S* for this run and removed after it/);
  });
});
