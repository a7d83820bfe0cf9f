;; The kernel of src/lib/int8-rows.ts: the dot product of a query of 16-bit integers with each row
;; of a matrix of 8-bit integers, exact in 32-bit integers. Each iteration reads 32 bytes of a row,
;; widens them to 16 bits and multiplies them with 32 of the query's numbers, eight lanes at a time
;; summed in pairs (i32x4.dot_i16x8_s), in four sums so that the adds of one row do not wait on each
;; other. Rows are padded to a multiple of 32 bytes, the query to as many numbers, with zeros.
;; `npm run wasm:generate` compiles it into int8-rows-kernel.ts.
(module
  (import "env" "memory" (memory 1))
  ;; out[r] = dot(query, rows[r]) for r < count, as 32-bit integers; each row is `width` bytes and
  ;; the query `width` 16-bit numbers, `width` a multiple of 32; addresses in bytes.
  (func (export "dots") (param $query i32) (param $rows i32) (param $count i32) (param $width i32) (param $out i32)
    (local $row i32) (local $q i32) (local $queryEnd i32) (local $p i32) (local $bytes v128)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (local.set $queryEnd (i32.add (local.get $query) (i32.shl (local.get $width) (i32.const 1))))
    (local.set $p (local.get $rows))
    (block $done
      (loop $eachRow
        (br_if $done (i32.ge_u (local.get $row) (local.get $count)))
        (local.set $a0 (v128.const i32x4 0 0 0 0))
        (local.set $a1 (v128.const i32x4 0 0 0 0))
        (local.set $a2 (v128.const i32x4 0 0 0 0))
        (local.set $a3 (v128.const i32x4 0 0 0 0))
        (local.set $q (local.get $query))
        (loop $eachThirtyTwo
          (local.set $bytes (v128.load (local.get $p)))
          (local.set $a0 (i32x4.add (local.get $a0) (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $bytes)) (v128.load (local.get $q)))))
          (local.set $a1 (i32x4.add (local.get $a1) (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $bytes)) (v128.load offset=16 (local.get $q)))))
          (local.set $bytes (v128.load offset=16 (local.get $p)))
          (local.set $a2 (i32x4.add (local.get $a2) (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $bytes)) (v128.load offset=32 (local.get $q)))))
          (local.set $a3 (i32x4.add (local.get $a3) (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $bytes)) (v128.load offset=48 (local.get $q)))))
          (local.set $p (i32.add (local.get $p) (i32.const 32)))
          (local.set $q (i32.add (local.get $q) (i32.const 64)))
          (br_if $eachThirtyTwo (i32.lt_u (local.get $q) (local.get $queryEnd))))
        (local.set $a0 (i32x4.add (i32x4.add (local.get $a0) (local.get $a1)) (i32x4.add (local.get $a2) (local.get $a3))))
        (i32.store (i32.add (local.get $out) (i32.shl (local.get $row) (i32.const 2)))
          (i32.add (i32.add (i32x4.extract_lane 0 (local.get $a0)) (i32x4.extract_lane 1 (local.get $a0)))
                   (i32.add (i32x4.extract_lane 2 (local.get $a0)) (i32x4.extract_lane 3 (local.get $a0)))))
        (local.set $row (i32.add (local.get $row) (i32.const 1)))
        (br $eachRow)))))
