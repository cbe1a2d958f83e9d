;; The first word of Philox4x32-7 (Random123) for counter (0, 0, 0, 0), as philox.ts jitterWord computes
;; it in JavaScript, for many keys at once: one sample's jitter in gulmc's Latin hypercube. WebAssembly
;; has the 32 x 32 -> 64-bit product that JavaScript lacks, which makes a draw about four times cheaper.
;; philox-wasm.ts holds this module compiled (npm run build:wasm regenerates it; a test checks they agree).
(module
  (memory (export "memory") 1)

  ;; The word for key (k0, k1). The first round of a zero counter leaves (k0, 0, k1, 0); rounds 1-5
  ;; follow, and of the last round only word 0 is kept.
  (func $word (param $k0 i32) (param $k1 i32) (result i32)
    (local $c0 i32) (local $c1 i32) (local $c2 i32) (local $c3 i32)
    (local $p0 i64) (local $p1 i64) (local $r i32)
    (local.set $c0 (local.get $k0))
    (local.set $c2 (local.get $k1))
    (local.set $k0 (i32.add (local.get $k0) (i32.const 0x9e3779b9)))
    (local.set $k1 (i32.add (local.get $k1) (i32.const 0xbb67ae85)))
    (local.set $r (i32.const 5))
    (loop $round
      (local.set $p0 (i64.mul (i64.extend_i32_u (local.get $c0)) (i64.const 0xd2511f53)))
      (local.set $p1 (i64.mul (i64.extend_i32_u (local.get $c2)) (i64.const 0xcd9e8d57)))
      (local.set $c0 (i32.xor (i32.xor (i32.wrap_i64 (i64.shr_u (local.get $p1) (i64.const 32))) (local.get $c1)) (local.get $k0)))
      (local.set $c2 (i32.xor (i32.xor (i32.wrap_i64 (i64.shr_u (local.get $p0) (i64.const 32))) (local.get $c3)) (local.get $k1)))
      (local.set $c1 (i32.wrap_i64 (local.get $p1)))
      (local.set $c3 (i32.wrap_i64 (local.get $p0)))
      (local.set $k0 (i32.add (local.get $k0) (i32.const 0x9e3779b9)))
      (local.set $k1 (i32.add (local.get $k1) (i32.const 0xbb67ae85)))
      (br_if $round (local.tee $r (i32.sub (local.get $r) (i32.const 1)))))
    (i32.xor
      (i32.xor
        (i32.wrap_i64 (i64.shr_u (i64.mul (i64.extend_i32_u (local.get $c2)) (i64.const 0xcd9e8d57)) (i64.const 32)))
        (local.get $c1))
      (local.get $k0)))

  ;; For keys i = 0 .. n - 1 (k0 at byte 8i, k1 at byte 8i + 4): 1 - word * 2^-32 as an f64 at byte out + 8i.
  (func (export "firstDraws") (param $n i32) (param $out i32)
    (local $i i32) (local $at i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $at (i32.shl (local.get $i) (i32.const 3)))
        (f64.store
          (i32.add (local.get $out) (local.get $at))
          (f64.sub
            (f64.const 1)
            (f64.mul
              (f64.convert_i32_u (call $word (i32.load (local.get $at)) (i32.load offset=4 (local.get $at))))
              (f64.const 0x1p-32))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))))
