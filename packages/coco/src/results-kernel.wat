;; The COCO segm results kernel (see results-kernel.ts and the README's Speed section): a results file of
;; compressed-RLE results read in WebAssembly, which is compiled before it runs (no warm-up in the
;; interpreter): the JSON scan, the numbers, and each mask's area and box.
;;
;; It only ever answers for the plain case: a JSON array of one or more objects, each with exactly the keys
;; image_id, category_id, score and segmentation (any order, any JSON whitespace), the ids plain integers
;; of at most 15 digits, the segmentation `{"size": [h, w], "counts": "..."}` (h, w integers in 1 … 32768,
;; the counts a valid compressed RLE string of an h×w mask, no escape but `\\`, counts of at most 6
;; characters, each below 2^31). Anything else (another key, a repeated key, nesting, an escape other than
;; `\\`, a bad number, a malformed RLE, a file that does not end after the array) traps (`unreachable`), and
;; the caller reads the file with the JavaScript reader, which gives the messages.
;;
;; Numbers: a score `-?int[.frac]` whose digits form an integer m < 2^53 with at most 22 fraction digits is
;; m / 10^f, one IEEE division of two exact doubles (then negated): correctly rounded, the same double as
;; `Number()` and the JavaScript reader's `parseNumber`. Any other score (an exponent, more digits) is
;; written NaN, its bytes kept at $out and recorded in the side list (entry, start, end): the caller parses
;; it with `parseNumber`.
;;
;; Masks: `measureOnly` of @cvdevkit/rle (string.ts), the same integer steps in the same order: the area
;; (sum of the odd runs) and the box as `toBbox`. Once a row is whole, `keep` (imported: coco's keepMask)
;; says whether its counts string is copied (unescaped) to $out, or dropped (length -2, box NaN).
;;
;; Memory (laid out by the caller): the window at 0, the part of the file being read, followed by at least
;; 8 zero bytes (a sentinel no rule takes, so no read passes its end), then the columns (`cap` rows each),
;; the side list, and the kept strings. A record the window's end cuts traps: `resume` says where it
;; starts, the caller moves the window on and calls `scan` again, which reads it again from its start
;; (what the cut record wrote is undone: $nside and $out are put back).
(module
  ;; keep(image_id, category_id): whether the mask's string is kept (coco's keepMask)
  (import "coco" "keep" (func $keep (param f64 f64) (result i32)))
  (memory (export "memory") 1)

  (global $p (mut i32) (i32.const 0))
  (global $cend (mut i32) (i32.const 0))
  (global $nside (export "nside") (mut i32) (i32.const 0))
  (global $imageId (mut i32) (i32.const 0))
  (global $categoryId (mut i32) (i32.const 0))
  (global $score (mut i32) (i32.const 0))
  (global $h (mut i32) (i32.const 0))
  (global $w (mut i32) (i32.const 0))
  (global $start (mut i32) (i32.const 0))
  (global $length (mut i32) (i32.const 0))
  (global $area (mut i32) (i32.const 0))
  (global $box (mut i32) (i32.const 0))
  (global $side (mut i32) (i32.const 0))
  ;; the kept strings (and the side numbers' bytes) are appended at $out
  (global $out (export "out") (mut i32) (i32.const 0))
  ;; where the record being read starts in the window, and $n, $nside, $out there (a record cut by the
  ;; window's end is read again from its start with more of the file)
  (global $resume (export "resume") (mut i32) (i32.const 0))
  (global $n (mut i32) (i32.const 0))
  (global $cap (mut i32) (i32.const 0))
  (global $started (mut i32) (i32.const 0))
  (global $nsideAt (mut i32) (i32.const 0))
  (global $outAt (mut i32) (i32.const 0))
  ;; the counts string of the record being read: [$ca, $ce) of the window
  (global $ca (mut i32) (i32.const 0))
  (global $ce (mut i32) (i32.const 0))

  (func $byte (result i32) (i32.load8_u (global.get $p)))

  ;; JSON whitespace: space, tab, line feed, carriage return.
  (func $ws
    (local $c i32) (local $q i32)
    (local.set $q (global.get $p))
    (block $done
      (loop $next
        (local.set $c (i32.load8_u (local.get $q)))
        (br_if $done
          (i32.eqz
            (i32.or
              (i32.or (i32.eq (local.get $c) (i32.const 32)) (i32.eq (local.get $c) (i32.const 10)))
              (i32.or (i32.eq (local.get $c) (i32.const 9)) (i32.eq (local.get $c) (i32.const 13))))))
        (local.set $q (i32.add (local.get $q) (i32.const 1)))
        (br $next)))
    (global.set $p (local.get $q)))

  ;; Whitespace, then the byte c (else trap).
  (func $expect (param $c i32)
    (call $ws)
    (if (i32.ne (call $byte) (local.get $c)) (then unreachable))
    (global.set $p (i32.add (global.get $p) (i32.const 1))))

  ;; Whether the key [a, a + len) is the L-byte key whose 32-bit words at 0, m and L - 4 are c0, c1, c2.
  (func $key (param $a i32) (param $len i32) (param $L i32) (param $m i32) (param $c0 i32) (param $c1 i32) (param $c2 i32) (result i32)
    (if (i32.ne (local.get $len) (local.get $L)) (then (return (i32.const 0))))
    (i32.and
      (i32.and
        (i32.eq (i32.load (local.get $a)) (local.get $c0))
        (i32.eq (i32.load (i32.add (local.get $a) (local.get $m))) (local.get $c1)))
      (i32.eq (i32.load (i32.add (local.get $a) (i32.sub (local.get $L) (i32.const 4)))) (local.get $c2))))

  ;; Whitespace, a string without escapes or control bytes; returns its start, $p just past its end quote,
  ;; its length in the global-free way: the end quote is at $p - 1.
  (func $string (result i32)
    (local $a i32) (local $c i32)
    (call $expect (i32.const 34))
    (local.set $a (global.get $p))
    (block $done
      (loop $next
        (local.set $c (i32.load8_u (global.get $p)))
        (br_if $done (i32.eq (local.get $c) (i32.const 34)))
        (if (i32.or (i32.lt_u (local.get $c) (i32.const 32)) (i32.eq (local.get $c) (i32.const 92))) (then unreachable))
        (global.set $p (i32.add (global.get $p) (i32.const 1)))
        (br $next)))
    (global.set $p (i32.add (global.get $p) (i32.const 1)))
    (local.get $a))

  ;; Whitespace, then a counts string: its start in the window; the escape `\\` (a backslash, a character
  ;; of the RLE alphabet that JSON writers escape) is let through (read as one character by $measure and
  ;; $keepCounts), any other escape or a control byte traps. Its end quote is at $cend; $p is just past it.
  (func $counts (result i32)
    (local $a i32) (local $c i32) (local $r i32)
    (call $expect (i32.const 34))
    (local.set $a (global.get $p))
    (local.set $r (local.get $a))
    (block $done
      (loop $next
        (local.set $c (i32.load8_u (local.get $r)))
        (br_if $done (i32.eq (local.get $c) (i32.const 34)))
        (if (i32.eq (local.get $c) (i32.const 92))
          (then
            (local.set $r (i32.add (local.get $r) (i32.const 1)))
            (if (i32.ne (i32.load8_u (local.get $r)) (i32.const 92)) (then unreachable))))
        (if (i32.lt_u (local.get $c) (i32.const 32)) (then unreachable))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $next)))
    (global.set $p (i32.add (local.get $r) (i32.const 1)))
    (global.set $cend (local.get $r))
    (local.get $a))

  ;; The characters of the counts string [a, end) of the window (`\\` one character) appended to the kept
  ;; strings at $out; returns how many.
  (func $keepCounts (param $a i32) (param $end i32) (result i32)
    (local $c i32) (local $q i32)
    (local.set $q (global.get $out))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $a) (local.get $end)))
        (local.set $c (i32.load8_u (local.get $a)))
        (local.set $a (i32.add (local.get $a) (i32.add (i32.const 1) (i32.eq (local.get $c) (i32.const 92)))))
        (i32.store8 (local.get $q) (local.get $c))
        (local.set $q (i32.add (local.get $q) (i32.const 1)))
        (br $next)))
    (local.set $c (i32.sub (local.get $q) (global.get $out)))
    (global.set $out (local.get $q))
    (local.get $c))

  ;; A key of the object and its colon: 1 image_id, 2 category_id, 4 score, 8 segmentation, 16 size,
  ;; 32 counts (anything else traps).
  (func $member (result i32)
    (local $a i32) (local $len i32)
    (local.set $a (call $string))
    (local.set $len (i32.sub (i32.sub (global.get $p) (i32.const 1)) (local.get $a)))
    (call $expect (i32.const 58))
    (if (call $key (local.get $a) (local.get $len) (i32.const 8) (i32.const 4) (i32.const 1734438249) (i32.const 1684627301) (i32.const 1684627301)) (then (return (i32.const 1))))
    (if (call $key (local.get $a) (local.get $len) (i32.const 11) (i32.const 4) (i32.const 1702125923) (i32.const 2037542759) (i32.const 1684627321)) (then (return (i32.const 2))))
    (if (call $key (local.get $a) (local.get $len) (i32.const 5) (i32.const 1) (i32.const 1919902579) (i32.const 1701998435) (i32.const 1701998435)) (then (return (i32.const 4))))
    (if (call $key (local.get $a) (local.get $len) (i32.const 12) (i32.const 4) (i32.const 1835492723) (i32.const 1635020389) (i32.const 1852795252)) (then (return (i32.const 8))))
    (if (call $key (local.get $a) (local.get $len) (i32.const 4) (i32.const 0) (i32.const 1702521203) (i32.const 1702521203) (i32.const 1702521203)) (then (return (i32.const 16))))
    (if (call $key (local.get $a) (local.get $len) (i32.const 6) (i32.const 2) (i32.const 1853189987) (i32.const 1937010293) (i32.const 1937010293)) (then (return (i32.const 32))))
    unreachable)

  ;; Whitespace, then a plain unsigned integer of 1 … 15 digits (no leading zero but "0"); as a double.
  (func $id (result f64)
    (local $v i64) (local $d i32) (local $k i32)
    (call $ws)
    (local.set $d (i32.sub (call $byte) (i32.const 48)))
    (if (i32.gt_u (local.get $d) (i32.const 9)) (then unreachable))
    (if (i32.eqz (local.get $d))
      (then
        (global.set $p (i32.add (global.get $p) (i32.const 1)))
        (if (i32.le_u (i32.sub (call $byte) (i32.const 48)) (i32.const 9)) (then unreachable))
        (return (f64.const 0))))
    (block $done
      (loop $next
        (local.set $d (i32.sub (call $byte) (i32.const 48)))
        (br_if $done (i32.gt_u (local.get $d) (i32.const 9)))
        (if (i32.eq (local.get $k) (i32.const 15)) (then unreachable))
        (local.set $v (i64.add (i64.mul (local.get $v) (i64.const 10)) (i64.extend_i32_u (local.get $d))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (global.set $p (i32.add (global.get $p) (i32.const 1)))
        (br $next)))
    (f64.convert_i64_u (local.get $v)))

  ;; Whitespace, then a mask side: an integer 1 … 32768 of at most 5 digits, no leading zero.
  (func $side (result i32)
    (local $v i32) (local $d i32) (local $k i32)
    (call $ws)
    (if (i32.eq (call $byte) (i32.const 48)) (then unreachable))
    (block $done
      (loop $next
        (local.set $d (i32.sub (call $byte) (i32.const 48)))
        (br_if $done (i32.gt_u (local.get $d) (i32.const 9)))
        (if (i32.eq (local.get $k) (i32.const 5)) (then unreachable))
        (local.set $v (i32.add (i32.mul (local.get $v) (i32.const 10)) (local.get $d)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (global.set $p (i32.add (global.get $p) (i32.const 1)))
        (br $next)))
    (if (i32.or (i32.eqz (local.get $k)) (i32.gt_u (local.get $v) (i32.const 32768))) (then unreachable))
    (local.get $v))

  ;; Whether c is a byte of a JSON number: digits, '+', '-', '.', 'e', 'E'.
  (func $numberByte (param $c i32) (result i32)
    (i32.or
      (i32.le_u (i32.sub (local.get $c) (i32.const 48)) (i32.const 9))
      (i32.or
        (i32.or (i32.eq (local.get $c) (i32.const 43)) (i32.eq (local.get $c) (i32.const 45)))
        (i32.or (i32.eq (local.get $c) (i32.const 46)) (i32.eq (i32.or (local.get $c) (i32.const 32)) (i32.const 101))))))

  ;; Whitespace, then row i's score (see the header): written to the score column, or NaN and a side entry.
  (func $number (param $i i32)
    (local $start i32) (local $neg i32) (local $m i64) (local $nd i32) (local $f i32) (local $d i32) (local $pow f64)
    (call $ws)
    (local.set $start (global.get $p))
    (if (i32.eq (call $byte) (i32.const 45))
      (then
        (local.set $neg (i32.const 1))
        (global.set $p (i32.add (global.get $p) (i32.const 1)))))
    (local.set $d (i32.sub (call $byte) (i32.const 48)))
    (if (i32.gt_u (local.get $d) (i32.const 9)) (then unreachable))
    (block $slow
      (block $fast
        ;; the integer part ("0" alone, or no leading zero)
        (if (i32.eqz (local.get $d))
          (then
            (global.set $p (i32.add (global.get $p) (i32.const 1)))
            (if (i32.le_u (i32.sub (call $byte) (i32.const 48)) (i32.const 9)) (then unreachable)))
          (else
            (loop $int
              (local.set $d (i32.sub (call $byte) (i32.const 48)))
              (if (i32.le_u (local.get $d) (i32.const 9))
                (then
                  (br_if $slow (i32.eq (local.get $nd) (i32.const 18)))
                  (local.set $m (i64.add (i64.mul (local.get $m) (i64.const 10)) (i64.extend_i32_u (local.get $d))))
                  (local.set $nd (i32.add (local.get $nd) (i32.const 1)))
                  (global.set $p (i32.add (global.get $p) (i32.const 1)))
                  (br $int))))))
        ;; the fraction
        (if (i32.eq (call $byte) (i32.const 46))
          (then
            (global.set $p (i32.add (global.get $p) (i32.const 1)))
            (if (i32.gt_u (i32.sub (call $byte) (i32.const 48)) (i32.const 9)) (then unreachable))
            (loop $frac
              (local.set $d (i32.sub (call $byte) (i32.const 48)))
              (if (i32.le_u (local.get $d) (i32.const 9))
                (then
                  (br_if $slow (i32.eq (local.get $nd) (i32.const 18)))
                  (br_if $slow (i32.eq (local.get $f) (i32.const 22)))
                  (local.set $m (i64.add (i64.mul (local.get $m) (i64.const 10)) (i64.extend_i32_u (local.get $d))))
                  (local.set $nd (i32.add (local.get $nd) (i32.const 1)))
                  (local.set $f (i32.add (local.get $f) (i32.const 1)))
                  (global.set $p (i32.add (global.get $p) (i32.const 1)))
                  (br $frac))))))
        (br_if $slow (i32.eq (i32.or (call $byte) (i32.const 32)) (i32.const 101)))
        (br_if $slow (i64.ge_u (local.get $m) (i64.const 9007199254740992)))
        (br $fast))
      ;; m / 10^f: 10^f by multiplications, each exact (10^22 < 2^53 · 2^22)
      (local.set $pow (f64.const 1))
      (block $done
        (loop $next
          (br_if $done (i32.eqz (local.get $f)))
          (local.set $pow (f64.mul (local.get $pow) (f64.const 10)))
          (local.set $f (i32.sub (local.get $f) (i32.const 1)))
          (br $next)))
      (local.set $pow (f64.div (f64.convert_i64_u (local.get $m)) (local.get $pow)))
      (if (local.get $neg) (then (local.set $pow (f64.neg (local.get $pow)))))
      (f64.store (i32.add (global.get $score) (i32.shl (local.get $i) (i32.const 3))) (local.get $pow))
      (return))
    ;; left to the caller: the token's bytes
    (global.set $p (local.get $start))
    (block $done
      (loop $next
        (br_if $done (i32.eqz (call $numberByte (call $byte))))
        (global.set $p (i32.add (global.get $p) (i32.const 1)))
        (br $next)))
    (f64.store (i32.add (global.get $score) (i32.shl (local.get $i) (i32.const 3))) (f64.const nan))
    (local.set $d (i32.add (global.get $side) (i32.mul (global.get $nside) (i32.const 12))))
    (i32.store (local.get $d) (local.get $i))
    (i32.store offset=4 (local.get $d) (global.get $out))
    ;; the token's bytes kept at $out (the window moves on)
    (block $copied
      (loop $copy
        (br_if $copied (i32.ge_u (local.get $start) (global.get $p)))
        (i32.store8 (global.get $out) (i32.load8_u (local.get $start)))
        (global.set $out (i32.add (global.get $out) (i32.const 1)))
        (local.set $start (i32.add (local.get $start) (i32.const 1)))
        (br $copy)))
    (i32.store offset=8 (local.get $d) (global.get $out))
    (global.set $nside (i32.add (global.get $nside) (i32.const 1))))

  ;; The area and box of row i's mask, the counts string [a, end) of an h×w mask: `measureOnly` (trap where
  ;; it gives -1).
  (func $measure (param $i i32) (param $a i32) (param $end i32) (param $h i32) (param $w i32)
    (local $m i32) (local $p i32) (local $back2 i32) (local $back1 i32) (local $sum i64) (local $area i64)
    (local $xs i32) (local $ys i32) (local $xe i32) (local $ye i32) (local $col i32) (local $row i32)
    (local $v i32) (local $c0 i32) (local $c i32) (local $x i32) (local $k i32) (local $s i32)
    (local $colStart i32) (local $rowStart i32) (local $r i32) (local $q i32) (local $yEnd i32) (local $xEnd i32)
    (local $at i32)
    (local.set $p (local.get $a))
    (local.set $xs (local.get $w))
    (local.set $ys (local.get $h))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $c0 (i32.load8_u (local.get $p)))
        ;; `\\` (the only escape $counts lets through) is the character 92
        (local.set $p (i32.add (local.get $p) (i32.add (i32.const 1) (i32.eq (local.get $c0) (i32.const 92)))))
        (local.set $c0 (i32.sub (local.get $c0) (i32.const 48)))
        (if (i32.lt_u (local.get $c0) (i32.const 32))
          (then
            (local.set $v
              (if (result i32) (i32.and (local.get $c0) (i32.const 16))
                (then (i32.sub (local.get $c0) (i32.const 32)))
                (else (local.get $c0)))))
          (else
            (if (i32.gt_u (local.get $c0) (i32.const 63)) (then unreachable))
            (local.set $x (i32.and (local.get $c0) (i32.const 31)))
            (local.set $k (i32.const 1))
            (local.set $c (local.get $c0))
            (block $last
              (loop $group
                (br_if $last (i32.eqz (i32.and (local.get $c) (i32.const 32))))
                (if (i32.or (i32.eq (local.get $p) (local.get $end)) (i32.eq (local.get $k) (i32.const 6))) (then unreachable))
                (local.set $c (i32.load8_u (local.get $p)))
                (local.set $p (i32.add (local.get $p) (i32.add (i32.const 1) (i32.eq (local.get $c) (i32.const 92)))))
                (local.set $c (i32.sub (local.get $c) (i32.const 48)))
                (if (i32.gt_u (local.get $c) (i32.const 63)) (then unreachable))
                (local.set $x (i32.or (local.get $x) (i32.shl (i32.and (local.get $c) (i32.const 31)) (i32.mul (i32.const 5) (local.get $k)))))
                (local.set $k (i32.add (local.get $k) (i32.const 1)))
                (br $group)))
            ;; sign-extended from bit 5k - 1
            (local.set $s (i32.sub (i32.const 32) (i32.mul (i32.const 5) (local.get $k))))
            (local.set $v (i32.shr_s (i32.shl (local.get $x) (local.get $s)) (local.get $s)))))
        (if (i32.gt_u (local.get $m) (i32.const 2)) (then (local.set $v (i32.add (local.get $v) (local.get $back2)))))
        ;; a count outside [0, 2^31) (as int32 the sum of a count below 2^31 and one of |v| < 2^29 that
        ;; passes 2^31 is negative)
        (if (i32.lt_s (local.get $v) (i32.const 0)) (then unreachable))
        (local.set $back2 (local.get $back1))
        (local.set $back1 (local.get $v))
        (local.set $sum (i64.add (local.get $sum) (i64.extend_i32_u (local.get $v))))
        (local.set $colStart (local.get $col))
        (local.set $rowStart (local.get $row))
        ;; row + v < 2^31 + 2^15: unsigned
        (local.set $r (i32.add (local.get $row) (local.get $v)))
        (if (i32.lt_u (local.get $r) (local.get $h))
          (then (local.set $row (local.get $r)))
          (else
            (if (i32.lt_u (local.get $r) (i32.shl (local.get $h) (i32.const 1)))
              (then
                (local.set $row (i32.sub (local.get $r) (local.get $h)))
                (local.set $col (i32.add (local.get $col) (i32.const 1))))
              (else
                (local.set $q (i32.div_u (local.get $r) (local.get $h)))
                (local.set $col (i32.add (local.get $col) (local.get $q)))
                (local.set $row (i32.sub (local.get $r) (i32.mul (local.get $q) (local.get $h))))))))
        (if (i32.and (i32.and (local.get $m) (i32.const 1)) (i32.ne (local.get $v) (i32.const 0)))
          (then
            (local.set $area (i64.add (local.get $area) (i64.extend_i32_u (local.get $v))))
            (if (i32.gt_s (local.get $row) (i32.const 0))
              (then
                (local.set $yEnd (i32.sub (local.get $row) (i32.const 1)))
                (local.set $xEnd (local.get $col)))
              (else
                (local.set $yEnd (i32.sub (local.get $h) (i32.const 1)))
                (local.set $xEnd (i32.sub (local.get $col) (i32.const 1)))))
            (if (i32.lt_s (local.get $colStart) (local.get $xs)) (then (local.set $xs (local.get $colStart))))
            (if (i32.gt_s (local.get $xEnd) (local.get $xe)) (then (local.set $xe (local.get $xEnd))))
            (if (i32.lt_s (local.get $colStart) (local.get $xEnd))
              (then
                (local.set $ys (i32.const 0))
                (local.set $ye (i32.sub (local.get $h) (i32.const 1))))
              (else
                (if (i32.lt_s (local.get $rowStart) (local.get $ys)) (then (local.set $ys (local.get $rowStart))))
                (if (i32.gt_s (local.get $yEnd) (local.get $ye)) (then (local.set $ye (local.get $yEnd))))))))
        (local.set $m (i32.add (local.get $m) (i32.const 1)))
        (br $next)))
    (if (i64.ne (local.get $sum) (i64.mul (i64.extend_i32_u (local.get $h)) (i64.extend_i32_u (local.get $w)))) (then unreachable))
    (local.set $at (i32.add (global.get $box) (i32.shl (local.get $i) (i32.const 5))))
    (if (i32.ge_u (local.get $m) (i32.const 2))
      (then
        (f64.store (local.get $at) (f64.convert_i32_s (local.get $xs)))
        (f64.store offset=8 (local.get $at) (f64.convert_i32_s (local.get $ys)))
        (f64.store offset=16 (local.get $at) (f64.convert_i32_u (i32.add (i32.sub (local.get $xe) (local.get $xs)) (i32.const 1))))
        (f64.store offset=24 (local.get $at) (f64.convert_i32_u (i32.add (i32.sub (local.get $ye) (local.get $ys)) (i32.const 1)))))
      (else
        (f64.store (local.get $at) (f64.const 0))
        (f64.store offset=8 (local.get $at) (f64.const 0))
        (f64.store offset=16 (local.get $at) (f64.const 0))
        (f64.store offset=24 (local.get $at) (f64.const 0))))
    (f64.store (i32.add (global.get $area) (i32.shl (local.get $i) (i32.const 3))) (f64.convert_i64_u (local.get $area))))

  ;; Whitespace, then row i's `{"size": [h, w], "counts": "..."}`, measured.
  (func $segmentation (param $i i32)
    (local $seen i32) (local $key i32) (local $h i32) (local $w i32) (local $a i32) (local $end i32) (local $c i32)
    (call $expect (i32.const 123))
    (loop $members
      (local.set $key (call $member))
      (if (i32.and (local.get $seen) (local.get $key)) (then unreachable))
      (local.set $seen (i32.or (local.get $seen) (local.get $key)))
      (if (i32.eq (local.get $key) (i32.const 16))
        (then
          (call $expect (i32.const 91))
          (local.set $h (call $side))
          (call $expect (i32.const 44))
          (local.set $w (call $side))
          (call $expect (i32.const 93)))
        (else
          (if (i32.ne (local.get $key) (i32.const 32)) (then unreachable))
          (local.set $a (call $counts))
          (local.set $end (global.get $cend))))
      (call $ws)
      (local.set $c (call $byte))
      (global.set $p (i32.add (global.get $p) (i32.const 1)))
      (br_if $members (i32.eq (local.get $c) (i32.const 44)))
      (if (i32.ne (local.get $c) (i32.const 125)) (then unreachable)))
    (if (i32.ne (local.get $seen) (i32.const 48)) (then unreachable))
    (f64.store (i32.add (global.get $h) (i32.shl (local.get $i) (i32.const 3))) (f64.convert_i32_u (local.get $h)))
    (f64.store (i32.add (global.get $w) (i32.shl (local.get $i) (i32.const 3))) (f64.convert_i32_u (local.get $w)))
    (global.set $ca (local.get $a))
    (global.set $ce (local.get $end))
    (call $measure (local.get $i) (local.get $a) (local.get $end) (local.get $h) (local.get $w)))

  ;; A new reading: the columns (`cap` rows each), the side list, the kept strings from `out` on.
  (func (export "init") (param $cap i32)
    (param $imageId i32) (param $categoryId i32) (param $score i32) (param $h i32) (param $w i32)
    (param $start i32) (param $length i32) (param $area i32) (param $box i32) (param $side i32) (param $out i32)
    (global.set $cap (local.get $cap))
    (global.set $imageId (local.get $imageId))
    (global.set $categoryId (local.get $categoryId))
    (global.set $score (local.get $score))
    (global.set $h (local.get $h))
    (global.set $w (local.get $w))
    (global.set $start (local.get $start))
    (global.set $length (local.get $length))
    (global.set $area (local.get $area))
    (global.set $box (local.get $box))
    (global.set $side (local.get $side))
    (global.set $out (local.get $out))
    (global.set $outAt (local.get $out))
    (global.set $nside (i32.const 0))
    (global.set $nsideAt (i32.const 0))
    (global.set $n (i32.const 0))
    (global.set $started (i32.const 0))
    (global.set $resume (i32.const 0)))

  ;; Row n done: its mask's string kept at $out (or dropped: length -2, box NaN, as coco's sink does).
  (func $commit (param $n i32)
    (local $at i32)
    (f64.store (i32.add (global.get $start) (i32.shl (local.get $n) (i32.const 3))) (f64.convert_i32_u (global.get $out)))
    (if (call $keep
          (f64.load (i32.add (global.get $imageId) (i32.shl (local.get $n) (i32.const 3))))
          (f64.load (i32.add (global.get $categoryId) (i32.shl (local.get $n) (i32.const 3)))))
      (then
        (i32.store (i32.add (global.get $length) (i32.shl (local.get $n) (i32.const 2))) (call $keepCounts (global.get $ca) (global.get $ce))))
      (else
        (i32.store (i32.add (global.get $length) (i32.shl (local.get $n) (i32.const 2))) (i32.const -2))
        (local.set $at (i32.add (global.get $box) (i32.shl (local.get $n) (i32.const 5))))
        (f64.store (local.get $at) (f64.const nan))
        (f64.store offset=8 (local.get $at) (f64.const nan))
        (f64.store offset=16 (local.get $at) (f64.const nan))
        (f64.store offset=24 (local.get $at) (f64.const nan)))))

  ;; The window [0, end) (a sentinel 0 after it; `eof`: the file ends there), from the record at which the
  ;; last call stopped: the number of rows once the array has ended (-1: it ended, but not the file: left to
  ;; the caller). Traps on anything but the plain case — or on a record the window's end cuts (then
  ;; `resume` is where it starts: the caller moves the window on and calls again).
  (func (export "scan") (param $end i32) (param $eof i32) (result i32)
    (local $n i32) (local $seen i32) (local $key i32) (local $c i32)
    (global.set $p (i32.const 0))
    (global.set $resume (i32.const 0))
    (global.set $nside (global.get $nsideAt))
    (global.set $out (global.get $outAt))
    (local.set $n (global.get $n))
    (if (i32.eqz (global.get $started))
      (then
        (call $expect (i32.const 91))
        (global.set $started (i32.const 1))
        (call $ws)
        (global.set $resume (global.get $p))))
    (loop $records
      (if (i32.ge_u (local.get $n) (global.get $cap)) (then unreachable))
      (call $expect (i32.const 123))
      (local.set $seen (i32.const 0))
      (loop $members
        (local.set $key (call $member))
        (if (i32.and (local.get $seen) (local.get $key)) (then unreachable))
        (local.set $seen (i32.or (local.get $seen) (local.get $key)))
        (if (i32.eq (local.get $key) (i32.const 1))
          (then (f64.store (i32.add (global.get $imageId) (i32.shl (local.get $n) (i32.const 3))) (call $id)))
          (else
            (if (i32.eq (local.get $key) (i32.const 2))
              (then (f64.store (i32.add (global.get $categoryId) (i32.shl (local.get $n) (i32.const 3))) (call $id)))
              (else
                (if (i32.eq (local.get $key) (i32.const 4))
                  (then (call $number (local.get $n)))
                  (else
                    (if (i32.ne (local.get $key) (i32.const 8)) (then unreachable))
                    (call $segmentation (local.get $n))))))))
        (call $ws)
        (local.set $c (call $byte))
        (global.set $p (i32.add (global.get $p) (i32.const 1)))
        (br_if $members (i32.eq (local.get $c) (i32.const 44)))
        (if (i32.ne (local.get $c) (i32.const 125)) (then unreachable)))
      (if (i32.ne (local.get $seen) (i32.const 15)) (then unreachable))
      (call $ws)
      (local.set $c (call $byte))
      ;; the record is whole once what follows it is seen (a number could go on past the window's end)
      (if (i32.eqz (i32.or (i32.eq (local.get $c) (i32.const 44)) (i32.eq (local.get $c) (i32.const 93)))) (then unreachable))
      (global.set $p (i32.add (global.get $p) (i32.const 1)))
      (call $commit (local.get $n))
      (local.set $n (i32.add (local.get $n) (i32.const 1)))
      (global.set $n (local.get $n))
      (global.set $nsideAt (global.get $nside))
      (global.set $outAt (global.get $out))
      (if (i32.eq (local.get $c) (i32.const 44))
        (then
          (call $ws)
          (global.set $resume (global.get $p))
          (br $records))))
    (call $ws)
    (if (i32.ne (global.get $p) (local.get $end)) (then unreachable))
    (if (i32.eqz (local.get $eof)) (then (return (i32.const -1))))
    (local.get $n))
)
