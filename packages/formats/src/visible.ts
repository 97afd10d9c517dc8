/** Offending values in messages: core's visible-text helpers, re-exported where the parsers always found them. */
export { describeValue, hasInvisible, visibleQuote } from '@cvdevkit/core';
