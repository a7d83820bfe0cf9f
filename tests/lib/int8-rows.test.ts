import { int8RowsKernelSource } from "../../scripts/generate-wasm";
import { INT8_ROWS_QUERY_MAX, Int8Rows } from "../../src/lib/int8-rows";
import { INT8_ROWS_KERNEL } from "../../src/lib/int8-rows-kernel";

/** The dot products of `query` with each row, summed in order: what the kernel must give exactly. */
function exactDots(rows: number[][], query: number[]): number[] {
  return rows.map((row) => row.reduce((sum, value, d) => sum + value * query[d]!, 0));
}

/** Integers in [-max, max], from a seed (the same every run). */
function seeded(seed: number, max: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return Math.round((state / 2_147_483_648) * 2 * max) - max;
  };
}

function filled(count: number, dimensions: number, seed: number): { matrix: Int8Rows; rows: number[][] } {
  const next = seeded(seed, 127);
  const matrix = new Int8Rows(count, dimensions);
  const rows = Array.from({ length: count }, () => Array.from({ length: dimensions }, next));
  rows.forEach((row, i) => matrix.row(i).set(row));
  return { matrix, rows };
}

describe("Int8Rows", () => {
  it("is the kernel compiled from int8-rows.wat (npm run wasm:generate after changing it)", async () => {
    expect(await int8RowsKernelSource()).toContain(`"${INT8_ROWS_KERNEL}"`);
  });

  it.each([1, 3, 31, 32, 33, 100, 512, 1536, 2048])("gives each row's dot product with the query exactly at %i dimensions", (dimensions) => {
    const { matrix, rows } = filled(37, dimensions, dimensions);
    const query = Array.from({ length: dimensions }, seeded(7 * dimensions, INT8_ROWS_QUERY_MAX));
    expect([...matrix.dots(query)]).toEqual(exactDots(rows, query));
  });

  it("sums the largest magnitudes at the most dimensions without overflowing", () => {
    const matrix = new Int8Rows(2, 2_048);
    matrix.row(0).fill(-128);
    matrix.row(1).fill(127);
    expect([...matrix.dots(new Array(2_048).fill(INT8_ROWS_QUERY_MAX))]).toEqual([-128 * INT8_ROWS_QUERY_MAX * 2_048, 127 * INT8_ROWS_QUERY_MAX * 2_048]);
    expect(() => new Int8Rows(1, 2_049)).toThrow("at most 2,048");
  });

  it("reads each row alone: a row's padding stays zero, its neighbours untouched", () => {
    const matrix = new Int8Rows(3, 5);
    matrix.row(1).set([1, 2, 3, 4, 5]);
    expect(() => matrix.row(1).set([1, 2, 3, 4, 5, 6])).toThrow(RangeError);
    expect([...matrix.dots([1, 1, 1, 1, 1])]).toEqual([0, 15, 0]);
    expect([...matrix.dots([0, 0, 0, 0, 2])]).toEqual([0, 10, 0]);
  });

  it("answers nothing for no rows, and refuses a query of another length", () => {
    expect([...new Int8Rows(0, 512).dots(new Array(512).fill(1))]).toEqual([]);
    expect(() => new Int8Rows(2, 4).dots([1, 2, 3])).toThrow("a query of 3 numbers for rows of 4");
  });

  it("keeps every set of rows apart", () => {
    const a = filled(10, 64, 1);
    const b = filled(10, 64, 2);
    const query = Array.from({ length: 64 }, seeded(3, INT8_ROWS_QUERY_MAX));
    const first = [...a.matrix.dots(query)];
    b.matrix.dots(query);
    expect([...a.matrix.dots(query)]).toEqual(first);
  });
});
