import { floatRowsKernelSource } from "../../scripts/generate-wasm";
import { FloatRows } from "../../src/lib/float-rows";
import { FLOAT_ROWS_KERNEL } from "../../src/lib/float-rows-kernel";

/** The dot products of `query` with each row as doubles, summed in order: what the kernel approximates. */
function exactDots(rows: number[][], query: number[]): number[] {
  return rows.map((row) => row.reduce((sum, value, d) => sum + Math.fround(value) * Math.fround(query[d]!), 0));
}

/** Numbers spread like a model's vector components, from a seed (the same every run). */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648 - 0.5;
  };
}

function filled(count: number, dimensions: number, seed: number): { matrix: FloatRows; rows: number[][] } {
  const next = seeded(seed);
  const matrix = new FloatRows(count, dimensions);
  const rows = Array.from({ length: count }, () => Array.from({ length: dimensions }, next));
  rows.forEach((row, i) => matrix.row(i).set(row));
  return { matrix, rows };
}

describe("FloatRows", () => {
  it("is the kernel compiled from float-rows.wat (npm run wasm:generate after changing it)", async () => {
    expect(await floatRowsKernelSource()).toContain(`"${FLOAT_ROWS_KERNEL}"`);
  });

  it.each([1, 3, 15, 16, 17, 100, 512, 1536])("gives each row's dot product with the query at %i dimensions", (dimensions) => {
    const { matrix, rows } = filled(37, dimensions, dimensions);
    const query = Array.from({ length: dimensions }, seeded(7 * dimensions));
    const expected = exactDots(rows, query);
    const found = [...matrix.dots(query)];
    expect(found).toHaveLength(37);
    found.forEach((dot, i) => expect(Math.abs(dot - expected[i]!)).toBeLessThan(1e-5 * Math.max(1, Math.abs(expected[i]!)) * Math.sqrt(dimensions)));
  });

  it("reads each row alone: a row's padding stays zero, its neighbours untouched", () => {
    const matrix = new FloatRows(3, 5);
    matrix.row(1).set([1, 2, 3, 4, 5]);
    expect(() => matrix.row(1).set([1, 2, 3, 4, 5, 6])).toThrow(RangeError);
    expect([...matrix.dots([1, 1, 1, 1, 1])]).toEqual([0, 15, 0]);
    expect([...matrix.dots([0, 0, 0, 0, 2])]).toEqual([0, 10, 0]);
  });

  it("answers nothing for no rows, and refuses a query of another length", () => {
    expect([...new FloatRows(0, 512).dots(new Array(512).fill(1))]).toEqual([]);
    expect(() => new FloatRows(2, 4).dots([1, 2, 3])).toThrow("a query of 3 numbers for rows of 4");
  });

  it("keeps every set of rows apart", () => {
    const a = filled(10, 64, 1);
    const b = filled(10, 64, 2);
    const query = Array.from({ length: 64 }, seeded(3));
    const first = [...a.matrix.dots(query)];
    b.matrix.dots(query);
    expect([...a.matrix.dots(query)]).toEqual(first);
  });
});
