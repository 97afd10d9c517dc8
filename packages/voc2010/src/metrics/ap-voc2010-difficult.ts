/**
 * `ap-voc2010-difficult`: the VOC2010 AP (`VOCap.m`) with difficult objects counted as ordinary positives: they
 * enter `npos`, and a detection matched to one is a true positive instead of being ignored (VOCevaldet's
 * `gt.diff` test switched off). Not an official metric: it shows how much of a detector's score rests on the
 * objects the official protocol leaves out.
 */
import type { MetricPlugin } from '@cvdevkit/core';
import { apVoc2010, type RankedCurve } from '@cvdevkit/metrics/ranked';

export const apVoc2010Difficult: MetricPlugin<RankedCurve, number> = {
  name: 'ap-voc2010-difficult',
  description: 'VOC2010 AP with difficult objects counted as positives (not official)',
  compute: apVoc2010.compute,
  protocol: { countDifficult: true },
};
