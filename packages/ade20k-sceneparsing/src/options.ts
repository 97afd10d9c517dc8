/** Options of `ade20k/sceneparsing` (the CLI flags are their kebab-case names). */
export interface SceneParsingOptions {
  /** The ground-truth folder (`annotations/validation`): `<image>.png`, values 0..150, 0 = unlabeled. */
  gt: string;
  /** The predictions folder: `<image>.png` with the ground truth's name and size, values = class ids 1..150. */
  pred: string;
  /**
   * Score a ground truth without prediction (and a truecolour prediction) as if every pixel were predicted 0,
   * instead of skipping it as the official code does (default false: official).
   */
  missingAsWrong?: boolean;
  /** Evaluate only block `i` of `n` ("2/3") of the listed files; needs `countsOut`. */
  shard?: string;
  /** Where a shard writes its counts (JSON; gzip when the name ends in `.gz`), for `cvdevkit merge`. */
  countsOut?: string;
}

declare module '@cvdevkit/core' {
  interface TaskRegistry {
    'ade20k/sceneparsing': SceneParsingOptions;
  }
}
