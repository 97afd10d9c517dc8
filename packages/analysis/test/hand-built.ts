/** Hand-built detection inputs shared by the confusion and F1 tests. */
import { vocMatcher } from '@cvdevkit/metrics';
import type { DiagnoseInput } from '../src/diagnose/input.js';

export type Det = [image: number, cls: number, score: number, box: number[]];
export type Obj = [image: number, cls: number, box: number[], difficult?: number];

/** A diagnosis input of hand-built images (classes cat, dog, car; VOC's matching). */
export function handInput(dets: Det[], objs: Obj[], images = ['a', 'b'], classes = ['cat', 'dog', 'car']): DiagnoseInput {
  return {
    classes,
    images,
    match: vocMatcher,
    detections: {
      image: Int32Array.from(dets.map((d) => d[0])),
      cls: Int32Array.from(dets.map((d) => d[1])),
      score: Float64Array.from(dets.map((d) => d[2])),
      boxes: Float64Array.from(dets.flatMap((d) => d[3])),
    },
    objects: {
      image: Int32Array.from(objs.map((o) => o[0])),
      cls: Int32Array.from(objs.map((o) => o[1])),
      boxes: Float64Array.from(objs.flatMap((o) => o[2])),
      difficult: Uint8Array.from(objs.map((o) => o[3] ?? 0)),
    },
    similarGroups: [],
    meanRule: 'numeric',
  };
}

/**
 * One detection of each kind. Image a: a cat, a dog, a car and a difficult cat; image b: a dog.
 * - d0 cat 0.9 on the cat: a correct match → (cat, cat);
 * - d1 cat 0.8 on the dog: a wrong-class match → (dog, cat);
 * - d2 car 0.7 on nothing (image b): a background detection → (background, car);
 * - d3 dog 0.1 on b's dog: under --conf 0.25, left out → b's dog is (dog, background);
 * - d4 cat 0.6 on the difficult cat: the object is ignored, and so is the detection;
 * - the car of image a: no detection → (car, background).
 */
export const ONE_OF_EACH = handInput(
  [
    [0, 0, 0.9, [1, 1, 100, 100]],
    [0, 0, 0.8, [200, 200, 300, 300]],
    [1, 2, 0.7, [300, 300, 350, 350]],
    [1, 1, 0.1, [1, 1, 100, 100]],
    [0, 0, 0.6, [600, 600, 700, 700]],
  ],
  [
    [0, 0, [1, 1, 100, 100]],
    [0, 1, [200, 200, 300, 300]],
    [0, 2, [400, 1, 500, 100]],
    [0, 0, [600, 600, 700, 700], 1],
    [1, 1, [1, 1, 100, 100]],
  ],
);

