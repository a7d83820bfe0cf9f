import { MAX_BODY_TREE_DEPTH, lenientTreeEntries, strictTreeEntries, walkElementTree, type TreeEntry } from "../../src/contracts/content-tree";

const placed = (entries: Array<TreeEntry<unknown>> | undefined) => entries?.map(({ key, depth }) => `${key}@${depth}`);
const markdown = (content: string) => ({ type: "Markdown", props: { content } });

describe("the element-tree walk", () => {
  it("places elements in document order: each one, then its children's subtrees as listed", () => {
    const elements = {
      root: { type: "Section", children: ["intro", "part", "outro"] },
      intro: markdown("intro"),
      part: { type: "Section", children: ["detail"] },
      detail: markdown("detail"),
      unreachable: markdown("never"),
      outro: markdown("outro"),
    };
    expect(placed(walkElementTree("root", elements, "skip"))).toEqual(["root@0", "intro@1", "part@1", "detail@2", "outro@1"]);
    expect(placed(walkElementTree("root", elements, "refuse"))).toEqual(["root@0", "intro@1", "part@1", "detail@2", "outro@1"]);
  });

  it("places each element of a cycle once when skipping, and refuses the tree otherwise", () => {
    const elements = {
      a: { type: "Section", children: ["b"] },
      b: { type: "Section", children: ["a", "text"] },
      text: markdown("once"),
    };
    expect(walkElementTree("a", elements, "skip")).toEqual([
      { key: "a", element: elements.a, depth: 0 },
      { key: "b", element: elements.b, depth: 1 },
      { key: "text", element: elements.text, depth: 2 },
    ]);
    expect(walkElementTree("a", elements, "refuse")).toBeUndefined();
  });

  it("stops a chain below the depth bound, and still places its deepest element where it is met higher up", () => {
    const elements: Record<string, unknown> = { root: { type: "Section", children: ["c0", "c32"] } };
    for (let i = 0; i <= 32; i++) elements[`c${i}`] = { type: "Section", children: i < 32 ? [`c${i + 1}`] : [] };
    const expected = ["root@0", ...Array.from({ length: 32 }, (_, i) => `c${i}@${i + 1}`), "c32@1"];
    expect(MAX_BODY_TREE_DEPTH).toBe(32);
    expect(placed(walkElementTree("root", elements, "skip"))).toEqual(expected);
    expect(walkElementTree("root", elements, "refuse")).toBeUndefined();
  });

  it("skips a child key with no element of its own, a key naming Object's built-ins, and a key that is not a string", () => {
    const elements = { root: { type: "Section", children: ["ghost", "constructor", "__proto__", 7, "kept"] }, kept: markdown("kept") };
    expect(placed(walkElementTree("root", elements, "skip"))).toEqual(["root@0", "kept@1"]);
    expect(walkElementTree("root", elements, "refuse")).toBeUndefined();
    expect(walkElementTree("nowhere", elements, "skip")).toEqual([]);
  });
});

describe("lenientTreeEntries, for text", () => {
  it("keeps an element of a type this version does not know, as pushed", () => {
    const timeline = { type: "Timeline", props: { label: "Q3" } };
    expect(lenientTreeEntries({ root: "r", elements: { r: { type: "Section", children: ["t", "gone"] }, t: timeline } })).toEqual([
      { key: "r", element: { type: "Section", children: ["t", "gone"] }, depth: 0 },
      { key: "t", element: timeline, depth: 1 },
    ]);
  });

  it("finds no elements in what is not a tree", () => {
    for (const content of ["## text", null, [1, 2], { rows: [1] }, { root: 1, elements: {} }, { root: "r", elements: [] }]) {
      expect(lenientTreeEntries(content)).toEqual([]);
    }
  });
});

describe("strictTreeEntries, for display", () => {
  it("answers the parsed blocks of a tree that matches §2.8, defaults filled in", () => {
    const entries = strictTreeEntries({
      root: "r",
      elements: { r: { type: "Section", props: { title: "Churn" }, children: ["m", "s"] }, m: markdown("up"), s: { type: "Section" } },
    });
    expect(entries).toEqual([
      { key: "r", element: { type: "Section", props: { title: "Churn" }, children: ["m", "s"] }, depth: 0 },
      { key: "m", element: { type: "Markdown", props: { content: "up" } }, depth: 1 },
      { key: "s", element: { type: "Section", children: [] }, depth: 1 },
    ]);
  });

  it("refuses an unknown block type, even one no child reaches", () => {
    const elements = { r: { type: "Section", children: ["m"] }, m: markdown("fine"), t: { type: "Timeline", props: {} } };
    expect(strictTreeEntries({ root: "r", elements })).toBeUndefined();
  });

  it("refuses a missing child key, a cycle, and a root that is not a Section", () => {
    expect(strictTreeEntries({ root: "r", elements: { r: { type: "Section", children: ["ghost"] } } })).toBeUndefined();
    expect(strictTreeEntries({ root: "r", elements: { r: { type: "Section", children: ["r"] } } })).toBeUndefined();
    expect(strictTreeEntries({ root: "m", elements: { m: markdown("alone") } })).toBeUndefined();
    expect(strictTreeEntries({ root: "r", elements: {} })).toBeUndefined();
  });
});
