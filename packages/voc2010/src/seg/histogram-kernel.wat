;; The VOC seg histogram kernel (see histogram-kernel.ts): one image pair added to the joint histogram of
;; `VOCevalseg.m` (lines 53-56), the work of `accumulateBytes` in confusion.ts, in WebAssembly, so that a
;; run needs no optimising compiler for it (the task runs on V8's baseline compilers: Liftoff for this).
;;
;; Pixels are bytes (8-bit label images), the ground truth at `gt` and the result at `res`, `n` of each, both
;; 8-byte aligned. For every pixel with ground truth below 255, bin `L = gt + 21 * res` is counted when
;; `L <= 440` (histc over 1:441 drops larger bins), in 32-bit counts at offset 0 (441 of them, zeroed here).
;; Label images are long runs of one (gt, res) pair: a run is counted once, and while the pair repeats
;; the scan moves eight pixels at a time (64-bit words of both images compared with the pair repeated).
;; The first result value above `maxLabel` stops the scan: `above` is its pixel index (-1 when none), and
;; the histogram is then to be discarded (the official code stops with an error there).
;; Returns the pixels counted.
(module
  ;; the caller's memory (histogram-kernel.ts: one memory for every instance of the module)
  (import "env" "memory" (memory 1))

  ;; index of the first result value above maxLabel, or -1
  (global $above (export "above") (mut i32) (i32.const -1))

  ;; Adds a run of `len` pixels of the pair (g, r): returns the pixels counted (0 or len).
  (func $addRun (param $g i32) (param $r i32) (param $len i32) (result i32)
    (local $l i32)
    (if (i32.ge_u (local.get $g) (i32.const 255)) (then (return (i32.const 0))))
    (local.set $l (i32.add (local.get $g) (i32.mul (local.get $r) (i32.const 21))))
    (if (i32.gt_u (local.get $l) (i32.const 440)) (then (return (i32.const 0))))
    (local.set $l (i32.shl (local.get $l) (i32.const 2)))
    (i32.store (local.get $l) (i32.add (i32.load (local.get $l)) (local.get $len)))
    (local.get $len))

  (func (export "accumulate") (param $gt i32) (param $res i32) (param $n i32) (param $maxLabel i32) (result i32)
    (local $k i32)
    (local $start i32)
    (local $g i32)
    (local $r i32)
    (local $pg i32)
    (local $pr i32)
    (local $g8 i64)
    (local $r8 i64)
    (local $counted i32)
    ;; zero the 441 counts
    (memory.fill (i32.const 0) (i32.const 0) (i32.const 1764))
    (global.set $above (i32.const -1))
    (if (i32.eqz (local.get $n)) (then (return (i32.const 0))))
    ;; the first pixel opens the first run
    (local.set $pg (i32.load8_u (local.get $gt)))
    (local.set $pr (i32.load8_u (local.get $res)))
    (if (i32.gt_u (local.get $pr) (local.get $maxLabel)) (then (global.set $above (i32.const 0)) (return (i32.const 0))))
    (local.set $k (i32.const 1))
    (block $end
      (loop $pixel
        ;; at a word boundary, skip whole words that repeat the current pair
        (if (i32.eqz (i32.and (local.get $k) (i32.const 7)))
          (then
            (local.set $g8 (i64.mul (i64.extend_i32_u (local.get $pg)) (i64.const 0x0101010101010101)))
            (local.set $r8 (i64.mul (i64.extend_i32_u (local.get $pr)) (i64.const 0x0101010101010101)))
            (block $differs
              (loop $word
                (br_if $differs (i32.gt_u (i32.add (local.get $k) (i32.const 8)) (local.get $n)))
                (br_if $differs (i64.ne (i64.load (i32.add (local.get $gt) (local.get $k))) (local.get $g8)))
                (br_if $differs (i64.ne (i64.load (i32.add (local.get $res) (local.get $k))) (local.get $r8)))
                (local.set $k (i32.add (local.get $k) (i32.const 8)))
                (br $word)))))
        (br_if $end (i32.ge_u (local.get $k) (local.get $n)))
        (local.set $g (i32.load8_u (i32.add (local.get $gt) (local.get $k))))
        (local.set $r (i32.load8_u (i32.add (local.get $res) (local.get $k))))
        (if (i32.or (i32.ne (local.get $g) (local.get $pg)) (i32.ne (local.get $r) (local.get $pr)))
          (then
            (local.set $counted (i32.add (local.get $counted) (call $addRun (local.get $pg) (local.get $pr) (i32.sub (local.get $k) (local.get $start)))))
            (if (i32.gt_u (local.get $r) (local.get $maxLabel)) (then (global.set $above (local.get $k)) (return (local.get $counted))))
            (local.set $pg (local.get $g))
            (local.set $pr (local.get $r))
            (local.set $start (local.get $k))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $pixel)))
    (i32.add (local.get $counted) (call $addRun (local.get $pg) (local.get $pr) (i32.sub (local.get $n) (local.get $start)))))
)
