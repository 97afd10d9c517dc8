/**
 * A hold the caller may place around chart drawing. The library itself changes nothing of the process: an
 * application (the cvdevkit CLI's entry point) may register a hold, for example one that switches V8's
 * optimising compiler off while charts are drawn (measured faster on 2 cores, see the CLI's
 * `optimising-compiler.ts`).
 */
export interface DrawingHold {
  /** Called once every thread that draws has loaded the chart library (possibly more than once; idempotent). */
  off(): void;
  /** Called when this drawing ends. */
  release(): void;
}

const NO_HOLD: DrawingHold = { off() {}, release() {} };
let makeHold: () => DrawingHold = () => NO_HOLD;

/** Registers what each drawing holds (the CLI's entry point does; a library user usually does not). */
export function setDrawingHold(factory: (() => DrawingHold) | undefined): void {
  makeHold = factory ?? (() => NO_HOLD);
}

/** The hold of one drawing. */
export function drawingHold(): DrawingHold {
  return makeHold();
}
