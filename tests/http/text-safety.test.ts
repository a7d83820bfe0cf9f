import { findUnstorableInput, MAX_JSON_DEPTH } from "../../src/http/text-safety";

const NUL = "a\u0000b";
const LONE_SURROGATE = "a\ud800b";

describe("findUnstorableInput", () => {
  it("clears storable input, flat or nested", () => {
    expect(findUnstorableInput({ id: "art_1", limit: "10" })).toBeUndefined();
    expect(findUnstorableInput({})).toBeUndefined();
    expect(findUnstorableInput("text")).toBeUndefined();
    expect(findUnstorableInput(null)).toBeUndefined();
    expect(findUnstorableInput({ a: { b: ["x", 1, true, null] } })).toBeUndefined();
  });

  it("names the value of a flat object that cannot be stored", () => {
    expect(findUnstorableInput({ id: "ok", name: NUL }, "query")).toEqual({
      path: "query.name",
      problem: "contains a NUL character (\\u0000), which cannot be stored",
    });
    expect(findUnstorableInput({ id: LONE_SURROGATE })).toEqual({ path: "id", problem: "contains a lone UTF-16 surrogate, which is not valid Unicode" });
    expect(findUnstorableInput({ confidence: Infinity })).toEqual({ path: "confidence", problem: "is a number too large to store" });
  });

  it("names a key that cannot be stored at the object holding it", () => {
    expect(findUnstorableInput({ [NUL]: "x" }, "form")).toEqual({
      path: "form",
      problem: "has a key that contains a NUL character (\\u0000), which cannot be stored",
    });
  });

  it("reports the first problem in the order the walk has always used: keys before values, then values in order", () => {
    expect(findUnstorableInput({ a: NUL, [LONE_SURROGATE]: "x" })?.problem).toMatch(/^has a key that contains a lone UTF-16 surrogate/);
    expect(findUnstorableInput({ a: "ok", b: NUL, c: Infinity })?.path).toBe("b");
  });

  it("names a value nested in objects and arrays by its path", () => {
    expect(findUnstorableInput({ keyFindings: ["fine", NUL] })?.path).toBe("keyFindings[1]");
    expect(findUnstorableInput({ content: { children: [{ text: LONE_SURROGATE }] } })?.path).toBe("content.children[0].text");
  });

  it("refuses nesting deeper than the limit", () => {
    let deep: unknown = "leaf";
    for (let level = 0; level <= MAX_JSON_DEPTH; level++) deep = [deep];
    expect(findUnstorableInput(deep)?.problem).toBe(`is nested deeper than ${MAX_JSON_DEPTH} levels`);
  });
});
