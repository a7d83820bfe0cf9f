import type { Database } from "../../src/db/database";
import { namedStatement, sqlLiteral, statementNamedByText } from "../../src/db/named-statement";
import { openTestDatabase } from "../support/test-app";

// Named statements (src/db/named-statement.ts): prepared once per connection, then executed. On
// the embedded engine their values travel as literals in `EXECUTE`, so these tests hold values
// that a careless quoting would break, and compare every answer with the unnamed statement's.

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

const ECHO = namedStatement("wsi_test_echo", "SELECT $1::text AS text, $2::double precision AS number, $3::boolean AS flag, $4::timestamptz AS at");

const AWKWARD = ["it's", "back\\slash", "both ' and \\", "$1", "'; DROP TABLE artifacts; --", "E'x'", "ünïcödé ✓", "", "line\nbreak", "tab\there", "\\'"];

describe("named statements", () => {
  it("answer what the unnamed statement answers, whatever the text holds", async () => {
    const at = new Date("2026-03-04T05:06:07.089Z");
    for (const text of AWKWARD) {
      const named = await database.executor.queryNamed<Record<string, unknown>>(ECHO, [text, -1.5e-7, true, at]);
      const unnamed = await database.executor.query<Record<string, unknown>>(ECHO.text, [text, -1.5e-7, true, at]);
      expect(named).toEqual(unnamed);
      expect(named[0]!.text).toBe(text);
    }
    const nulls = await database.executor.queryNamed<Record<string, unknown>>(ECHO, [null, null, false, null]);
    expect(nulls).toEqual([{ text: null, number: null, flag: false, at: null }]);
  });

  it("take arrays of text and numbers, elements quoted however awkward, empty and with nulls", async () => {
    const arrays = namedStatement("wsi_test_arrays", "SELECT $1::text[] AS texts, $2::float8[] AS numbers, cardinality($1::text[]) AS count");
    const cases: Array<[Array<string | null>, Array<number | null>]> = [
      [AWKWARD, [0, -1.5e-7, 3.25, 1e21]],
      [['"quoted"', "{braces}", "a,b", "NULL", "null", " spaced ", "\\", '\\"'], [1]],
      [[], []],
      [[null, "x", null], [null, 2]],
    ];
    for (const [texts, numbers] of cases) {
      const named = await database.executor.queryNamed<Record<string, unknown>>(arrays, [texts, numbers]);
      expect(named).toEqual(await database.executor.query(arrays.text, [texts, numbers]));
      expect(named[0]!.texts).toEqual(texts);
      expect(named[0]!.numbers).toEqual(numbers);
    }
    expect(() => sqlLiteral(["a\u0000b"])).toThrow(/NUL/);
    expect(() => sqlLiteral([Number.NaN])).toThrow(/finite/);
    expect(() => sqlLiteral({ not: "a value" } as never)).toThrow(/no SQL literal/);
  });

  it("are named by their text when built from parts: the same text the same name, another another", () => {
    const text = "SELECT $1::text AS text";
    expect(statementNamedByText("wsi_test", text)).toEqual(statementNamedByText("wsi_test", text));
    expect(statementNamedByText("wsi_test", text).name).toMatch(/^wsi_test_[0-9a-f]{24}$/);
    expect(statementNamedByText("wsi_test", `${text} `).name).not.toBe(statementNamedByText("wsi_test", text).name);
  });

  it("are prepared again when the embedded engine's session lost them", async () => {
    // PostgreSQL's connections are the pool's, and nothing of the service deallocates on them
    // (docs/deployment.md: a direct connection, or a pooler in session mode).
    if (database.kind !== "embedded") return;
    expect(await database.executor.queryNamed(ECHO, ["before", 1, true, null])).toHaveLength(1);
    await database.executor.exec("DEALLOCATE ALL");
    const after = await database.executor.queryNamed<{ text: string }>(ECHO, ["after", 2, false, null]);
    expect(after[0]!.text).toBe("after");
  });

  it("pass a failure of the statement itself on, and still work afterwards", async () => {
    const failing = namedStatement("wsi_test_failing", "SELECT 1 / $1::int AS quotient");
    await expect(database.executor.queryNamed(failing, [0])).rejects.toMatchObject({ code: "22012" });
    expect(await database.executor.queryNamed(failing, [2])).toEqual([{ quotient: 0 }]);
  });

  it("refuse a name that is not an identifier, and values without an exact literal", () => {
    expect(() => namedStatement("drop table x", "SELECT 1")).toThrow(/not a statement name/);
    expect(() => namedStatement("Upper", "SELECT 1")).toThrow(/not a statement name/);
    expect(() => sqlLiteral(Number.NaN)).toThrow(/finite/);
    expect(() => sqlLiteral(Number.POSITIVE_INFINITY)).toThrow(/finite/);
    expect(() => sqlLiteral("a\u0000b")).toThrow(/NUL/);
  });
});
