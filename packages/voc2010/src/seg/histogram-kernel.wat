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
;;
;; `unfilter` is PNG's scanline un-filtering (filter types 0-4, PNG spec §9) for one byte per pixel, in place, as
;; `unfilterOneBytePerPixel` in @cvdevkit/formats' png.ts does it (the same integer steps in the same order): the
;; decoder of the pixels the histogram counts hands it the inflated scanlines (`LabelStorage.unfilter`).
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

  ;; Un-filters `h` scanlines of `w` bytes at `raw` (each after its filter byte: row y's bytes at y·(w+1)+1) into
  ;; `w × h` pixels at `raw` (row y moves down to y·w: always to a lower address than it is read from, and the row
  ;; above is in its final place when a filter reads it). The caller checks that the scanlines are all there.
  ;; Returns 0, having changed nothing, when a filter type is not 0-4 (the JavaScript path gives the message).
  (func (export "unfilter") (param $raw i32) (param $w i32) (param $h i32) (result i32)
    (local $y i32)
    (local $x i32)
    (local $src i32)
    (local $dst i32)
    (local $up i32)
    (local $f i32)
    (local $a i32)
    (local $b i32)
    (local $c i32)
    (local $p i32)
    (local $pa i32)
    (local $pb i32)
    (local $pc i32)
    ;; every filter type first: nothing is changed unless all rows can be done
    (block $checked
      (loop $row
        (br_if $checked (i32.ge_u (local.get $y) (local.get $h)))
        (if (i32.gt_u (i32.load8_u (i32.add (local.get $raw) (i32.mul (local.get $y) (i32.add (local.get $w) (i32.const 1))))) (i32.const 4))
          (then (return (i32.const 0))))
        (local.set $y (i32.add (local.get $y) (i32.const 1)))
        (br $row)))
    (local.set $y (i32.const 0))
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $y) (local.get $h)))
        (local.set $src (i32.add (local.get $raw) (i32.add (i32.mul (local.get $y) (i32.add (local.get $w) (i32.const 1))) (i32.const 1))))
        (local.set $dst (i32.add (local.get $raw) (i32.mul (local.get $y) (local.get $w))))
        (local.set $up (i32.sub (local.get $dst) (local.get $w)))
        (local.set $f (i32.load8_u (i32.sub (local.get $src) (i32.const 1))))
        ;; Up on the first row is None (no row above)
        (if (i32.and (i32.eq (local.get $f) (i32.const 2)) (i32.eqz (local.get $y))) (then (local.set $f (i32.const 0))))
        (local.set $x (i32.const 0))
        (block $filtered
          (if (i32.eqz (local.get $f))
            (then
              (memory.copy (local.get $dst) (local.get $src) (local.get $w))
              (br $filtered)))
          (if (i32.eq (local.get $f) (i32.const 1))
            (then
              (local.set $a (i32.const 0))
              (block $end
                (loop $px
                  (br_if $end (i32.ge_u (local.get $x) (local.get $w)))
                  (local.set $a (i32.and (i32.add (i32.load8_u (i32.add (local.get $src) (local.get $x))) (local.get $a)) (i32.const 255)))
                  (i32.store8 (i32.add (local.get $dst) (local.get $x)) (local.get $a))
                  (local.set $x (i32.add (local.get $x) (i32.const 1)))
                  (br $px)))
              (br $filtered)))
          (if (i32.eq (local.get $f) (i32.const 2))
            (then
              (block $end
                (loop $px
                  (br_if $end (i32.ge_u (local.get $x) (local.get $w)))
                  (i32.store8 (i32.add (local.get $dst) (local.get $x))
                    (i32.add (i32.load8_u (i32.add (local.get $src) (local.get $x))) (i32.load8_u (i32.add (local.get $up) (local.get $x)))))
                  (local.set $x (i32.add (local.get $x) (i32.const 1)))
                  (br $px)))
              (br $filtered)))
          (if (i32.eq (local.get $f) (i32.const 3))
            (then
              (local.set $a (i32.const 0))
              (block $end
                (loop $px
                  (br_if $end (i32.ge_u (local.get $x) (local.get $w)))
                  (local.set $b (if (result i32) (local.get $y) (then (i32.load8_u (i32.add (local.get $up) (local.get $x)))) (else (i32.const 0))))
                  (local.set $a (i32.and (i32.add (i32.load8_u (i32.add (local.get $src) (local.get $x))) (i32.shr_u (i32.add (local.get $a) (local.get $b)) (i32.const 1))) (i32.const 255)))
                  (i32.store8 (i32.add (local.get $dst) (local.get $x)) (local.get $a))
                  (local.set $x (i32.add (local.get $x) (i32.const 1)))
                  (br $px)))
              (br $filtered)))
          ;; 4: Paeth
          (local.set $a (i32.const 0))
          (local.set $c (i32.const 0))
          (block $end
            (loop $px
              (br_if $end (i32.ge_u (local.get $x) (local.get $w)))
              (local.set $b (if (result i32) (local.get $y) (then (i32.load8_u (i32.add (local.get $up) (local.get $x)))) (else (i32.const 0))))
              (local.set $p (i32.sub (i32.add (local.get $a) (local.get $b)) (local.get $c)))
              (local.set $pa (i32.sub (local.get $p) (local.get $a)))
              (if (i32.lt_s (local.get $pa) (i32.const 0)) (then (local.set $pa (i32.sub (i32.const 0) (local.get $pa)))))
              (local.set $pb (i32.sub (local.get $p) (local.get $b)))
              (if (i32.lt_s (local.get $pb) (i32.const 0)) (then (local.set $pb (i32.sub (i32.const 0) (local.get $pb)))))
              (local.set $pc (i32.sub (local.get $p) (local.get $c)))
              (if (i32.lt_s (local.get $pc) (i32.const 0)) (then (local.set $pc (i32.sub (i32.const 0) (local.get $pc)))))
              (local.set $a
                (i32.and
                  (i32.add (i32.load8_u (i32.add (local.get $src) (local.get $x)))
                    (if (result i32) (i32.and (i32.le_s (local.get $pa) (local.get $pb)) (i32.le_s (local.get $pa) (local.get $pc)))
                      (then (local.get $a))
                      (else (if (result i32) (i32.le_s (local.get $pb) (local.get $pc)) (then (local.get $b)) (else (local.get $c))))))
                  (i32.const 255)))
              (i32.store8 (i32.add (local.get $dst) (local.get $x)) (local.get $a))
              (local.set $c (local.get $b))
              (local.set $x (i32.add (local.get $x) (i32.const 1)))
              (br $px))))
        (local.set $y (i32.add (local.get $y) (i32.const 1)))
        (br $row)))
    (i32.const 1))
)
