;; The VOC cls kernel (see cls-kernel.ts and the README's Speed section): the byte loops of `voc2010/cls`
;; (the twenty `<class>_<set>.txt` lists, the twenty `comp1_cls_<set>_<class>.txt` results) and the ranking,
;; PR curve and VOCap of each class, in WebAssembly. Wasm is compiled before it runs (no warm-up in the
;; interpreter), so these loops run near native speed from the first file on.
;;
;; It only ever answers for the plain, clean case: every line two fields, integer labels of at most 9
;; digits, the same ids in the same order in every list, no repeated id, plain decimal scores
;; (`[+-]digits[.digits]`, an integer part and fraction below 2^53 with at most 22 fraction digits), every
;; result id listed. On anything else a function returns -1 and the caller reads the whole task again with
;; the JavaScript readers, which give the messages. Numbers: a score is `m / 10^f` of two exact doubles,
;; one IEEE division (as `parseNumberBytes`' fast path: the same double as `strtod`); the curve and the AP
;; are the same f64 operations in the same order as `precisionRecall` and `averagePrecisionArea`.
;;
;; Bytes as the JavaScript scanners see them (`byte-lines.ts`): 10 ends a line; 9, 11, 12, 13 and 32
;; separate fields; every other byte is part of a field. Memory is laid out by the caller (offsets below).
(module
  (memory (export "memory") 1)

  ;; the positives of the last `evaluate`
  (global $npos (export "npos") (mut i32) (i32.const 0))
  ;; set by $number when the token is not a plain decimal
  (global $bad (mut i32) (i32.const 0))

  ;; FNV-1a over [a, b), its high half folded into the low (byte-keys.ts `hashBytes`).
  (func $hash (param $a i32) (param $b i32) (result i32)
    (local $h i32)
    (local.set $h (i32.const 0x811c9dc5))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $a) (local.get $b)))
        (local.set $h (i32.mul (i32.xor (local.get $h) (i32.load8_u (local.get $a))) (i32.const 0x01000193)))
        (local.set $a (i32.add (local.get $a) (i32.const 1)))
        (br $next)))
    (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 16))))

  ;; Whether [a, b) and [c, c + (b - a)) hold the same bytes.
  (func $same (param $a i32) (param $b i32) (param $c i32) (result i32)
    (block $differ
      (loop $next
        (if (i32.ge_u (local.get $a) (local.get $b)) (then (return (i32.const 1))))
        (br_if $differ (i32.ne (i32.load8_u (local.get $a)) (i32.load8_u (local.get $c))))
        (local.set $a (i32.add (local.get $a) (i32.const 1)))
        (local.set $c (i32.add (local.get $c) (i32.const 1)))
        (br $next)))
    (i32.const 0))

  ;; Whether key r ([starts[r], ends[r])) is [a, b).
  (func $isKey (param $r i32) (param $starts i32) (param $ends i32) (param $a i32) (param $b i32) (result i32)
    (local $s i32)
    (local.set $s (i32.load (i32.add (local.get $starts) (i32.shl (local.get $r) (i32.const 2)))))
    (if (i32.ne
          (i32.sub (i32.load (i32.add (local.get $ends) (i32.shl (local.get $r) (i32.const 2)))) (local.get $s))
          (i32.sub (local.get $b) (local.get $a)))
      (then (return (i32.const 0))))
    (call $same (local.get $a) (local.get $b) (local.get $s)))

  ;; An integer label `[+-]digits` (at most 9 digits) of [a, b); sets $bad otherwise.
  (func $label (param $a i32) (param $b i32) (result i32)
    (local $c i32) (local $neg i32) (local $v i32)
    (local.set $c (i32.load8_u (local.get $a)))
    (local.set $neg (i32.eq (local.get $c) (i32.const 45)))
    (if (i32.or (local.get $neg) (i32.eq (local.get $c) (i32.const 43)))
      (then (local.set $a (i32.add (local.get $a) (i32.const 1)))))
    (if (i32.or (i32.ge_u (local.get $a) (local.get $b)) (i32.gt_u (i32.sub (local.get $b) (local.get $a)) (i32.const 9)))
      (then (global.set $bad (i32.const 1)) (return (i32.const 0))))
    (loop $next
      (local.set $c (i32.sub (i32.load8_u (local.get $a)) (i32.const 48)))
      (if (i32.gt_u (local.get $c) (i32.const 9))
        (then (global.set $bad (i32.const 1)) (return (i32.const 0))))
      (local.set $v (i32.add (i32.mul (local.get $v) (i32.const 10)) (local.get $c)))
      (local.set $a (i32.add (local.get $a) (i32.const 1)))
      (br_if $next (i32.lt_u (local.get $a) (local.get $b))))
    (select (i32.sub (i32.const 0) (local.get $v)) (local.get $v) (local.get $neg)))

  ;; A plain decimal `[+-]digits[.digits]` of [a, b) (at least one digit), as parseNumberBytes' exact path:
  ;; m (the digits as an integer, below 2^53) / 10^frac (frac <= 22), negated for '-'. Sets $bad otherwise.
  (func $number (param $a i32) (param $b i32) (result f64)
    (local $c i32) (local $neg i32) (local $digits i32) (local $frac i32) (local $m i64) (local $p f64)
    (local.set $c (i32.load8_u (local.get $a)))
    (local.set $neg (i32.eq (local.get $c) (i32.const 45)))
    (if (i32.or (local.get $neg) (i32.eq (local.get $c) (i32.const 43)))
      (then (local.set $a (i32.add (local.get $a) (i32.const 1)))))
    (block $int_done
      (loop $int
        (br_if $int_done (i32.ge_u (local.get $a) (local.get $b)))
        (local.set $c (i32.sub (i32.load8_u (local.get $a)) (i32.const 48)))
        (br_if $int_done (i32.gt_u (local.get $c) (i32.const 9)))
        (local.set $m (i64.add (i64.mul (local.get $m) (i64.const 10)) (i64.extend_i32_u (local.get $c))))
        (local.set $digits (i32.add (local.get $digits) (i32.const 1)))
        (local.set $a (i32.add (local.get $a) (i32.const 1)))
        ;; past 2^53 (and before i64 could wrap): not the exact path
        (if (i64.gt_u (local.get $m) (i64.const 0x1fffffffffffff))
          (then (global.set $bad (i32.const 1)) (return (f64.const 0))))
        (br $int)))
    (if (i32.lt_u (local.get $a) (local.get $b))
      (then
        (if (i32.ne (i32.load8_u (local.get $a)) (i32.const 46))
          (then (global.set $bad (i32.const 1)) (return (f64.const 0))))
        (local.set $a (i32.add (local.get $a) (i32.const 1)))
        (block $frac_done
          (loop $fraction
            (br_if $frac_done (i32.ge_u (local.get $a) (local.get $b)))
            (local.set $c (i32.sub (i32.load8_u (local.get $a)) (i32.const 48)))
            (if (i32.gt_u (local.get $c) (i32.const 9))
              (then (global.set $bad (i32.const 1)) (return (f64.const 0))))
            (local.set $m (i64.add (i64.mul (local.get $m) (i64.const 10)) (i64.extend_i32_u (local.get $c))))
            (local.set $digits (i32.add (local.get $digits) (i32.const 1)))
            (local.set $frac (i32.add (local.get $frac) (i32.const 1)))
            (local.set $a (i32.add (local.get $a) (i32.const 1)))
            (if (i32.or (i64.gt_u (local.get $m) (i64.const 0x1fffffffffffff)) (i32.gt_u (local.get $frac) (i32.const 22)))
              (then (global.set $bad (i32.const 1)) (return (f64.const 0))))
            (br $fraction)))))
    (if (i32.eqz (local.get $digits))
      (then (global.set $bad (i32.const 1)) (return (f64.const 0))))
    ;; 10^frac: exact for frac <= 22
    (local.set $p (f64.const 1))
    (block $pow_done
      (loop $pow
        (br_if $pow_done (i32.eqz (local.get $frac)))
        (local.set $p (f64.mul (local.get $p) (f64.const 10)))
        (local.set $frac (i32.sub (local.get $frac) (i32.const 1)))
        (br $pow)))
    (local.set $p (f64.div (f64.convert_i64_u (local.get $m)) (local.get $p)))
    (select (f64.neg (local.get $p)) (local.get $p) (local.get $neg)))

  ;; Lines of `<id> <label>` in [src, src + len). mode 0: record r's id span into starts/ends; mode 1: record
  ;; r's id must be the span starts/ends hold (r < n). Labels into `labels` (i32). Returns the records, or -1.
  (func (export "scanList")
    (param $src i32) (param $len i32) (param $mode i32) (param $n i32)
    (param $starts i32) (param $ends i32) (param $labels i32) (result i32)
    (local $i i32) (local $end i32) (local $c i32) (local $fields i32) (local $start i32)
    (local $a0 i32) (local $a1 i32) (local $b0 i32) (local $b1 i32) (local $count i32) (local $v i32) (local $at i32)
    (local.set $i (local.get $src))
    (local.set $end (i32.add (local.get $src) (local.get $len)))
    (global.set $bad (i32.const 0))
    (loop $line
      (local.set $fields (i32.const 0))
      (loop $field
        (local.set $c (i32.const 10))
        (block $ws_done
          (loop $ws
            (br_if $ws_done (i32.ge_u (local.get $i) (local.get $end)))
            (local.set $c (i32.load8_u (local.get $i)))
            (if (i32.or (i32.eq (local.get $c) (i32.const 32))
                  (i32.and (i32.le_u (i32.sub (local.get $c) (i32.const 9)) (i32.const 4)) (i32.ne (local.get $c) (i32.const 10))))
              (then (local.set $i (i32.add (local.get $i) (i32.const 1))) (br $ws)))))
        (if (i32.and (i32.lt_u (local.get $i) (local.get $end)) (i32.ne (local.get $c) (i32.const 10)))
          (then
            (local.set $start (local.get $i))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (block $f_done
              (loop $f
                (br_if $f_done (i32.ge_u (local.get $i) (local.get $end)))
                (local.set $c (i32.load8_u (local.get $i)))
                (br_if $f_done (i32.eq (local.get $c) (i32.const 32)))
                (br_if $f_done (i32.le_u (i32.sub (local.get $c) (i32.const 9)) (i32.const 4)))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br $f)))
            (if (i32.eqz (local.get $fields))
              (then (local.set $a0 (local.get $start)) (local.set $a1 (local.get $i))))
            (if (i32.eq (local.get $fields) (i32.const 1))
              (then (local.set $b0 (local.get $start)) (local.set $b1 (local.get $i))))
            (local.set $fields (i32.add (local.get $fields) (i32.const 1)))
            (br $field))))
      ;; end of a line (or of the bytes)
      (if (local.get $fields)
        (then
          (if (i32.ne (local.get $fields) (i32.const 2)) (then (return (i32.const -1))))
          (local.set $v (call $label (local.get $b0) (local.get $b1)))
          (if (global.get $bad) (then (return (i32.const -1))))
          (local.set $at (i32.shl (local.get $count) (i32.const 2)))
          (if (i32.eqz (local.get $mode))
            (then
              (i32.store (i32.add (local.get $starts) (local.get $at)) (local.get $a0))
              (i32.store (i32.add (local.get $ends) (local.get $at)) (local.get $a1)))
            (else
              (if (i32.ge_u (local.get $count) (local.get $n)) (then (return (i32.const -1))))
              (if (i32.eqz (call $isKey (local.get $count) (local.get $starts) (local.get $ends) (local.get $a0) (local.get $a1)))
                (then (return (i32.const -1))))))
          (i32.store (i32.add (local.get $labels) (local.get $at)) (local.get $v))
          (local.set $count (i32.add (local.get $count) (i32.const 1)))))
      (if (i32.lt_u (local.get $i) (local.get $end))
        (then
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $line))))
    (local.get $count))

  ;; The id index of records [0, n): open addressing (linear probing) in `table` (mask + 1 i32 slots, zero
  ;; on entry; a slot holds record + 1). Returns 0, or -1 when an id is there twice.
  (func (export "indexKeys") (param $n i32) (param $starts i32) (param $ends i32) (param $table i32) (param $mask i32) (result i32)
    (local $r i32) (local $a i32) (local $b i32) (local $slot i32) (local $e i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $r) (local.get $n)))
        (local.set $a (i32.load (i32.add (local.get $starts) (i32.shl (local.get $r) (i32.const 2)))))
        (local.set $b (i32.load (i32.add (local.get $ends) (i32.shl (local.get $r) (i32.const 2)))))
        (local.set $slot (i32.and (call $hash (local.get $a) (local.get $b)) (local.get $mask)))
        (block $placed
          (loop $probe
            (local.set $e (i32.load (i32.add (local.get $table) (i32.shl (local.get $slot) (i32.const 2)))))
            (if (i32.eqz (local.get $e))
              (then
                (i32.store (i32.add (local.get $table) (i32.shl (local.get $slot) (i32.const 2))) (i32.add (local.get $r) (i32.const 1)))
                (br $placed)))
            (if (call $isKey (i32.sub (local.get $e) (i32.const 1)) (local.get $starts) (local.get $ends) (local.get $a) (local.get $b))
              (then (return (i32.const -1))))
            (local.set $slot (i32.and (i32.add (local.get $slot) (i32.const 1)) (local.get $mask)))
            (br $probe)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $next)))
    (i32.const 0))

  ;; Lines of `<id> <score>` in [src, src + len): each score into `scores` (f64, n of them, -Inf first) at
  ;; its id's record (a later line of an id overwrites). Returns the lines read, or -1.
  (func (export "scanScores")
    (param $src i32) (param $len i32) (param $starts i32) (param $ends i32) (param $table i32) (param $mask i32)
    (param $scores i32) (param $n i32) (result i32)
    (local $i i32) (local $end i32) (local $c i32) (local $fields i32) (local $start i32)
    (local $a0 i32) (local $a1 i32) (local $b0 i32) (local $b1 i32) (local $count i32) (local $v f64)
    (local $slot i32) (local $e i32)
    (local.set $i (i32.const 0))
    (block $filled
      (loop $fill
        (br_if $filled (i32.ge_u (local.get $i) (local.get $n)))
        (f64.store (i32.add (local.get $scores) (i32.shl (local.get $i) (i32.const 3))) (f64.const -inf))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $fill)))
    (local.set $i (local.get $src))
    (local.set $end (i32.add (local.get $src) (local.get $len)))
    (global.set $bad (i32.const 0))
    (loop $line
      (local.set $fields (i32.const 0))
      (loop $field
        (local.set $c (i32.const 10))
        (block $ws_done
          (loop $ws
            (br_if $ws_done (i32.ge_u (local.get $i) (local.get $end)))
            (local.set $c (i32.load8_u (local.get $i)))
            (if (i32.or (i32.eq (local.get $c) (i32.const 32))
                  (i32.and (i32.le_u (i32.sub (local.get $c) (i32.const 9)) (i32.const 4)) (i32.ne (local.get $c) (i32.const 10))))
              (then (local.set $i (i32.add (local.get $i) (i32.const 1))) (br $ws)))))
        (if (i32.and (i32.lt_u (local.get $i) (local.get $end)) (i32.ne (local.get $c) (i32.const 10)))
          (then
            (local.set $start (local.get $i))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (block $f_done
              (loop $f
                (br_if $f_done (i32.ge_u (local.get $i) (local.get $end)))
                (local.set $c (i32.load8_u (local.get $i)))
                (br_if $f_done (i32.eq (local.get $c) (i32.const 32)))
                (br_if $f_done (i32.le_u (i32.sub (local.get $c) (i32.const 9)) (i32.const 4)))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br $f)))
            (if (i32.eqz (local.get $fields))
              (then (local.set $a0 (local.get $start)) (local.set $a1 (local.get $i))))
            (if (i32.eq (local.get $fields) (i32.const 1))
              (then (local.set $b0 (local.get $start)) (local.set $b1 (local.get $i))))
            (local.set $fields (i32.add (local.get $fields) (i32.const 1)))
            (br $field))))
      (if (local.get $fields)
        (then
          (if (i32.ne (local.get $fields) (i32.const 2)) (then (return (i32.const -1))))
          (local.set $v (call $number (local.get $b0) (local.get $b1)))
          (if (global.get $bad) (then (return (i32.const -1))))
          (local.set $slot (i32.and (call $hash (local.get $a0) (local.get $a1)) (local.get $mask)))
          (loop $probe
            (local.set $e (i32.load (i32.add (local.get $table) (i32.shl (local.get $slot) (i32.const 2)))))
            ;; an id that is not listed: the JavaScript reader says which
            (if (i32.eqz (local.get $e)) (then (return (i32.const -1))))
            (local.set $e (i32.sub (local.get $e) (i32.const 1)))
            (if (i32.eqz (call $isKey (local.get $e) (local.get $starts) (local.get $ends) (local.get $a0) (local.get $a1)))
              (then
                (local.set $slot (i32.and (i32.add (local.get $slot) (i32.const 1)) (local.get $mask)))
                (br $probe))))
          (f64.store (i32.add (local.get $scores) (i32.shl (local.get $e) (i32.const 3))) (local.get $v))
          (local.set $count (i32.add (local.get $count) (i32.const 1)))))
      (if (i32.lt_u (local.get $i) (local.get $end))
        (then
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $line))))
    (local.get $count))

  ;; One class: rank the n scores (f64, no NaN) descending, ties in list order (-0 as +0), as
  ;; `rankDescending`: a stable LSD radix sort of 64-bit keys whose unsigned order is the descending order
  ;; of the numbers (a negative number keeps its bits, a positive one flips all but the sign), a byte per
  ;; pass, a pass skipped when every key has the same byte. Then, in ranked order, tp = label > 0,
  ;; fp = label < 0, `recall = cumsum(tp) / npos`, `precision = cumsum(tp) ./ (cumsum(fp) + cumsum(tp))`
  ;; (`precisionRecall`), and with `wantAp` VOCap (`averagePrecisionArea`: the envelope from the end, NaN
  ;; ignored, then the area left to right); returns the AP (0 without `wantAp`), npos into the global.
  ;; Columns: keys n i64, order and tmp n i32 each, hist 256 i32, recall and precision n f64, mpre n + 2 f64.
  (func (export "evaluate")
    (param $n i32) (param $scores i32) (param $labels i32) (param $keys i32) (param $order i32) (param $tmp i32)
    (param $hist i32) (param $recall i32) (param $precision i32) (param $mpre i32) (param $wantAp i32) (result f64)
    (local $j i32) (local $v f64) (local $bits i64) (local $shift i64) (local $b i32) (local $sum i32) (local $cnt i32)
    (local $from i32) (local $to i32) (local $t i32) (local $p i32) (local $g i32) (local $npos i32)
    (local $ctp f64) (local $cfp f64) (local $nposf f64) (local $a f64) (local $m f64) (local $ap f64) (local $prev f64) (local $r f64)
    ;; keys, and the identity order
    (block $k_done
      (loop $k
        (br_if $k_done (i32.ge_u (local.get $j) (local.get $n)))
        (local.set $v (f64.load (i32.add (local.get $scores) (i32.shl (local.get $j) (i32.const 3)))))
        (local.set $bits (i64.reinterpret_f64 (select (f64.const 0) (local.get $v) (f64.eq (local.get $v) (f64.const 0)))))
        (i64.store (i32.add (local.get $keys) (i32.shl (local.get $j) (i32.const 3)))
          (select (local.get $bits) (i64.xor (local.get $bits) (i64.const 0x7fffffffffffffff)) (i64.lt_s (local.get $bits) (i64.const 0))))
        (i32.store (i32.add (local.get $order) (i32.shl (local.get $j) (i32.const 2))) (local.get $j))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $k)))
    (local.set $from (local.get $order))
    (local.set $to (local.get $tmp))
    (block $passes_done
      (loop $pass
        (br_if $passes_done (i64.ge_u (local.get $shift) (i64.const 64)))
        (local.set $j (i32.const 0))
        (block $z_done
          (loop $z
            (br_if $z_done (i32.ge_u (local.get $j) (i32.const 256)))
            (i32.store (i32.add (local.get $hist) (i32.shl (local.get $j) (i32.const 2))) (i32.const 0))
            (local.set $j (i32.add (local.get $j) (i32.const 1)))
            (br $z)))
        (local.set $j (i32.const 0))
        (block $h_done
          (loop $h
            (br_if $h_done (i32.ge_u (local.get $j) (local.get $n)))
            (local.set $b (i32.shl (i32.wrap_i64 (i64.and (i64.shr_u (i64.load (i32.add (local.get $keys) (i32.shl (local.get $j) (i32.const 3)))) (local.get $shift)) (i64.const 255))) (i32.const 2)))
            (i32.store (i32.add (local.get $hist) (local.get $b)) (i32.add (i32.load (i32.add (local.get $hist) (local.get $b))) (i32.const 1)))
            (local.set $j (i32.add (local.get $j) (i32.const 1)))
            (br $h)))
        ;; a pass that would move nothing (every key has key 0's byte) is skipped
        (local.set $b (i32.shl (i32.wrap_i64 (i64.and (i64.shr_u (i64.load (local.get $keys)) (local.get $shift)) (i64.const 255))) (i32.const 2)))
        (if (i32.ne (i32.load (i32.add (local.get $hist) (local.get $b))) (local.get $n))
          (then
            (local.set $sum (i32.const 0))
            (local.set $j (i32.const 0))
            (block $s_done
              (loop $s
                (br_if $s_done (i32.ge_u (local.get $j) (i32.const 1024)))
                (local.set $cnt (i32.load (i32.add (local.get $hist) (local.get $j))))
                (i32.store (i32.add (local.get $hist) (local.get $j)) (local.get $sum))
                (local.set $sum (i32.add (local.get $sum) (local.get $cnt)))
                (local.set $j (i32.add (local.get $j) (i32.const 4)))
                (br $s)))
            (local.set $j (i32.const 0))
            (block $m_done
              (loop $mv
                (br_if $m_done (i32.ge_u (local.get $j) (local.get $n)))
                (local.set $p (i32.load (i32.add (local.get $from) (i32.shl (local.get $j) (i32.const 2)))))
                (local.set $b (i32.add (local.get $hist)
                  (i32.shl (i32.wrap_i64 (i64.and (i64.shr_u (i64.load (i32.add (local.get $keys) (i32.shl (local.get $p) (i32.const 3)))) (local.get $shift)) (i64.const 255))) (i32.const 2))))
                (local.set $t (i32.load (local.get $b)))
                (i32.store (i32.add (local.get $to) (i32.shl (local.get $t) (i32.const 2))) (local.get $p))
                (i32.store (local.get $b) (i32.add (local.get $t) (i32.const 1)))
                (local.set $j (i32.add (local.get $j) (i32.const 1)))
                (br $mv)))
            (local.set $t (local.get $from))
            (local.set $from (local.get $to))
            (local.set $to (local.get $t))))
        (local.set $shift (i64.add (local.get $shift) (i64.const 8)))
        (br $pass)))
    ;; the positives
    (local.set $j (i32.const 0))
    (block $c_done
      (loop $cp
        (br_if $c_done (i32.ge_u (local.get $j) (local.get $n)))
        (local.set $npos (i32.add (local.get $npos)
          (i32.gt_s (i32.load (i32.add (local.get $labels) (i32.shl (local.get $j) (i32.const 2)))) (i32.const 0))))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $cp)))
    (global.set $npos (local.get $npos))
    (local.set $nposf (f64.convert_i32_s (local.get $npos)))
    ;; the curve in ranked order
    (local.set $j (i32.const 0))
    (block $r_done
      (loop $rk
        (br_if $r_done (i32.ge_u (local.get $j) (local.get $n)))
        (local.set $g (i32.load (i32.add (local.get $labels)
          (i32.shl (i32.load (i32.add (local.get $from) (i32.shl (local.get $j) (i32.const 2)))) (i32.const 2)))))
        (local.set $ctp (f64.add (local.get $ctp) (f64.convert_i32_u (i32.gt_s (local.get $g) (i32.const 0)))))
        (local.set $cfp (f64.add (local.get $cfp) (f64.convert_i32_u (i32.lt_s (local.get $g) (i32.const 0)))))
        (f64.store (i32.add (local.get $recall) (i32.shl (local.get $j) (i32.const 3))) (f64.div (local.get $ctp) (local.get $nposf)))
        (f64.store (i32.add (local.get $precision) (i32.shl (local.get $j) (i32.const 3)))
          (f64.div (local.get $ctp) (f64.add (local.get $cfp) (local.get $ctp))))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $rk)))
    (if (i32.eqz (local.get $wantAp)) (then (return (f64.const 0))))
    ;; mpre = [0; prec; 0], mpre(i) = max(mpre(i), mpre(i+1)) from the end, NaN ignored
    (f64.store (i32.add (local.get $mpre) (i32.shl (i32.add (local.get $n) (i32.const 1)) (i32.const 3))) (f64.const 0))
    (local.set $j (local.get $n))
    (loop $env
      (local.set $a (if (result f64) (i32.eqz (local.get $j))
        (then (f64.const 0))
        (else (f64.load (i32.add (local.get $precision) (i32.shl (i32.sub (local.get $j) (i32.const 1)) (i32.const 3)))))))
      (local.set $m (f64.load (i32.add (local.get $mpre) (i32.shl (i32.add (local.get $j) (i32.const 1)) (i32.const 3)))))
      (f64.store (i32.add (local.get $mpre) (i32.shl (local.get $j) (i32.const 3)))
        (if (result f64) (f64.ne (local.get $a) (local.get $a))
          (then (local.get $m))
          (else (if (result f64) (f64.ne (local.get $m) (local.get $m))
            (then (local.get $a))
            (else (select (local.get $a) (local.get $m) (f64.gt (local.get $a) (local.get $m))))))))
      (if (local.get $j)
        (then
          (local.set $j (i32.sub (local.get $j) (i32.const 1)))
          (br $env))))
    ;; sum((mrec(i) - mrec(i-1)) .* mpre(i)) over mrec(i) ~= mrec(i-1), mrec = [0; rec; 1], left to right
    (local.set $j (i32.const 0))
    (block $a_done
      (loop $area
        (br_if $a_done (i32.ge_u (local.get $j) (local.get $n)))
        (local.set $r (f64.load (i32.add (local.get $recall) (i32.shl (local.get $j) (i32.const 3)))))
        (if (f64.ne (local.get $r) (local.get $prev))
          (then
            (local.set $ap (f64.add (local.get $ap)
              (f64.mul (f64.sub (local.get $r) (local.get $prev))
                (f64.load (i32.add (local.get $mpre) (i32.shl (i32.add (local.get $j) (i32.const 1)) (i32.const 3)))))))))
        (local.set $prev (local.get $r))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $area)))
    (if (f64.ne (f64.const 1) (local.get $prev))
      (then
        (local.set $ap (f64.add (local.get $ap)
          (f64.mul (f64.sub (f64.const 1) (local.get $prev))
            (f64.load (i32.add (local.get $mpre) (i32.shl (i32.add (local.get $n) (i32.const 1)) (i32.const 3)))))))))
    (local.get $ap))
)
