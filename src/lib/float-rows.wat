;; The kernel of src/lib/float-rows.ts: the dot product of a query with each row of a matrix of
;; 32-bit floats, four lanes at a time in four accumulators (16 floats an iteration), so that the
;; adds of one row do not wait on each other. Rows and query are padded to a multiple of 16 floats
;; with zeros, which add nothing. `npm run wasm:generate` compiles it into float-rows-kernel.ts.
(module
  (import "env" "memory" (memory 1))
  ;; out[r] = dot(query, rows[r]) for r < count; each row and the query are `width` floats, a
  ;; multiple of 16; addresses in bytes.
  (func (export "dots") (param $query i32) (param $rows i32) (param $count i32) (param $width i32) (param $out i32)
    (local $row i32) (local $q i32) (local $queryEnd i32) (local $p i32)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (local.set $queryEnd (i32.add (local.get $query) (i32.shl (local.get $width) (i32.const 2))))
    (local.set $p (local.get $rows))
    (block $done
      (loop $eachRow
        (br_if $done (i32.ge_u (local.get $row) (local.get $count)))
        (local.set $a0 (v128.const i32x4 0 0 0 0))
        (local.set $a1 (v128.const i32x4 0 0 0 0))
        (local.set $a2 (v128.const i32x4 0 0 0 0))
        (local.set $a3 (v128.const i32x4 0 0 0 0))
        (local.set $q (local.get $query))
        (loop $eachSixteen
          (local.set $a0 (f32x4.add (local.get $a0) (f32x4.mul (v128.load (local.get $p)) (v128.load (local.get $q)))))
          (local.set $a1 (f32x4.add (local.get $a1) (f32x4.mul (v128.load offset=16 (local.get $p)) (v128.load offset=16 (local.get $q)))))
          (local.set $a2 (f32x4.add (local.get $a2) (f32x4.mul (v128.load offset=32 (local.get $p)) (v128.load offset=32 (local.get $q)))))
          (local.set $a3 (f32x4.add (local.get $a3) (f32x4.mul (v128.load offset=48 (local.get $p)) (v128.load offset=48 (local.get $q)))))
          (local.set $p (i32.add (local.get $p) (i32.const 64)))
          (local.set $q (i32.add (local.get $q) (i32.const 64)))
          (br_if $eachSixteen (i32.lt_u (local.get $q) (local.get $queryEnd))))
        (local.set $a0 (f32x4.add (f32x4.add (local.get $a0) (local.get $a1)) (f32x4.add (local.get $a2) (local.get $a3))))
        (f32.store (i32.add (local.get $out) (i32.shl (local.get $row) (i32.const 2)))
          (f32.add (f32.add (f32x4.extract_lane 0 (local.get $a0)) (f32x4.extract_lane 1 (local.get $a0)))
                   (f32.add (f32x4.extract_lane 2 (local.get $a0)) (f32x4.extract_lane 3 (local.get $a0)))))
        (local.set $row (i32.add (local.get $row) (i32.const 1)))
        (br $eachRow)))))
