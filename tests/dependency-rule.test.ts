/**
 * The one-way flow is a lint rule (eslint.config.js, `no-restricted-imports`), not a convention: a plugin that
 * imports analysis or report-html, core importing anything, or the CLI importing a plugin fails `pnpm lint`.
 */
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const eslint = new ESLint({ cwd: root });

async function restricted(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('the dependency rule bites', () => {
  it('on a plugin importing analysis or report-html (an existing plugin and a new package folder alike)', async () => {
    expect(await restricted('packages/voc2010/src/probe.ts', "import { runAnalysis } from '@cvdevkit/analysis';\nexport const x = runAnalysis;\n")).toEqual([expect.stringContaining('a plugin does not depend on analysis')]);
    expect(await restricted('packages/some-new-benchmark/src/probe.ts', "import { buildReportCharts } from '@cvdevkit/report-html';\nexport const x = buildReportCharts;\n")).toHaveLength(1);
  });
  it('on core importing a package', async () => {
    expect(await restricted('packages/core/src/probe.ts', "import { x } from '@cvdevkit/metrics';\nexport const y = x;\n")).toEqual([expect.stringContaining('core depends on nothing')]);
  });
  it('on the CLI or a shared layer importing a plugin', async () => {
    expect(await restricted('apps/cli/src/probe.ts', "import voc from '@cvdevkit/voc2010';\nexport const x = voc;\n")).toEqual([expect.stringContaining('import no plugin')]);
    expect(await restricted('packages/analysis/src/probe.ts', "import det from '@cvdevkit/ilsvrc2015-det';\nexport const x = det;\n")).toHaveLength(1);
  });
  it('not on what the flow allows', async () => {
    expect(await restricted('packages/voc2010/src/probe.ts', "import { createReport } from '@cvdevkit/core';\nimport { vocMatcher } from '@cvdevkit/metrics';\nexport const x = [createReport, vocMatcher];\n")).toEqual([]);
    expect(await restricted('apps/cli/src/probe.ts', "import { runAnalysis } from '@cvdevkit/analysis';\nimport { readTextFile } from '@cvdevkit/formats/fs';\nexport const x = [runAnalysis, readTextFile];\n")).toEqual([]);
  });
});
