import type { GroundTruth, Results } from './dataset.js';
import type { IouComputer } from './evaluate.js';
import { oks, oksVars } from './oks.js';

/** computeOks: OKS of every (detection, GT) pair of a unit with the given sigmas. */
export function keypointsIouComputer(gt: GroundTruth, dt: Results, sigmas: Float64Array): IouComputer {
  const vars = oksVars(sigmas);
  const scratch = new Float64Array(sigmas.length);
  return {
    compute(gts, dts) {
      const ng = gts.length;
      const nd = dts.length;
      const out = new Float64Array(nd * ng);
      for (let j = 0; j < ng; j++) {
        const g = gts[j];
        const gk = gt.anns.keypoints[g]!;
        for (let i = 0; i < nd; i++) out[i * ng + j] = oks(dt.keypoints[dts[i]]!, gk, gt.anns.bbox, 4 * g, gt.anns.area[g], vars, scratch);
      }
      return out;
    },
  };
}
