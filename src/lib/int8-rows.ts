import { INT8_ROWS_KERNEL } from "./int8-rows-kernel";

/** Bytes one iteration of the kernel reads of a row: each row is padded with zeros to a multiple of it. */
const LANES = 32;
const PAGE_BYTES = 65_536;

/** The largest magnitude of a query's numbers: 127 × 8,191 × 2,048 dimensions stays within a 32-bit sum. */
export const INT8_ROWS_QUERY_MAX = 8_191;

const kernel = new WebAssembly.Module(Buffer.from(INT8_ROWS_KERNEL, "base64"));

/**
 * Rows of 8-bit integers in a WebAssembly memory of their own, and the exact dot product of a
 * query of 16-bit integers with every row by a SIMD kernel (int8-rows.wat): a quarter of the
 * bytes 32-bit floats take, and 60,000 rows of 512 in 2.6 ms where the same rows as floats took
 * 9.2 (the kernel's speed is the memory's: docs/performance.md, "What each change bought"). Rows
 * are written through `row`. Each set of rows has a memory of its own, for which V8 reserves
 * 8 GiB of address space (not of memory): a process can hold about 16,000.
 */
export class Int8Rows {
  readonly #width: number;
  readonly #rows: Int8Array;
  readonly #query: Int16Array;
  readonly #out: Int32Array;
  /** Runs the kernel over the first rows; none for no rows. */
  readonly #run: ((rows: number) => void) | undefined;

  constructor(
    readonly count: number,
    readonly dimensions: number,
  ) {
    if (dimensions > 2_048) throw new RangeError(`rows of ${dimensions} numbers: at most 2,048 keep the sums within 32 bits`);
    this.#width = Math.max(LANES, Math.ceil(dimensions / LANES) * LANES);
    if (count === 0) {
      // No rows, no memory: V8 reserves gigabytes of address space for each.
      this.#rows = new Int8Array(0);
      this.#query = new Int16Array(0);
      this.#out = new Int32Array(0);
      return;
    }
    const queryAt = count * this.#width;
    const outAt = queryAt + this.#width * 2;
    const memory = new WebAssembly.Memory({ initial: Math.ceil((outAt + count * 4) / PAGE_BYTES) });
    const dots = new WebAssembly.Instance(kernel, { env: { memory } }).exports.dots as (query: number, rows: number, count: number, width: number, out: number) => void;
    this.#rows = new Int8Array(memory.buffer, 0, count * this.#width);
    this.#query = new Int16Array(memory.buffer, queryAt, this.#width);
    this.#out = new Int32Array(memory.buffer, outAt, count);
    this.#run = (rows) => dots(queryAt, 0, rows, this.#width, outAt);
  }

  /** Row `index`'s `dimensions` numbers, to write (its padding stays zero). */
  row(index: number): Int8Array {
    const at = index * this.#width;
    return this.#rows.subarray(at, at + this.dimensions);
  }

  /**
   * The dot product of `query` (`dimensions` integers of at most INT8_ROWS_QUERY_MAX in magnitude)
   * with each of the first `rows` rows, in row order, exactly: overwritten by the next call.
   */
  dots(query: ArrayLike<number>, rows = this.count): Int32Array {
    if (query.length !== this.dimensions) throw new RangeError(`a query of ${query.length} numbers for rows of ${this.dimensions}`);
    if (!(rows >= 0 && rows <= this.count)) throw new RangeError(`the dots of ${rows} rows of ${this.count}`);
    if (!this.#run) return this.#out;
    this.#query.set(query);
    this.#run(rows);
    return this.#out.subarray(0, rows);
  }
}
