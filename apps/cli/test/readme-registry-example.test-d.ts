// The README's typed-registry example, verbatim between the markers (readme-examples.test.ts checks that
// README.md holds the same text); `pnpm --filter @cvdevkit/cli typecheck` compiles it (issue 25 item 20).
// README example start
import { loadRegistry } from '@cvdevkit/registry';
import type {} from '@cvdevkit/voc2010'; // the plugin's task types: without this line evaluate('voc2010/det', …) does not compile

const registry = await loadRegistry();
const report = await registry.evaluate('voc2010/det', { root: '/data/VOCdevkit', set: 'val' });
console.log(report.summary.mAP);
// README example end
