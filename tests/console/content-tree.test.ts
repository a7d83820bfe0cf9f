import { parseDocument } from "../../src/console/content-tree";
import { renderBody } from "../../src/console/render-body";

/** A tree whose every section lists the next one twice: 2^levels paths through `levels` elements. */
function sharedChildren(levels: number) {
  const elements: Record<string, unknown> = { leaf: { type: "Markdown", props: { content: "x" } } };
  for (let i = 0; i < levels; i++) {
    const next = i === levels - 1 ? "leaf" : `s${i + 1}`;
    elements[`s${i}`] = { type: "Section", props: {}, children: [next, next] };
  }
  return { root: "s0", elements };
}

describe("the console's reading of an element tree", () => {
  it("falls back, at once, for a tree whose sections share their children level after level", () => {
    const started = performance.now();
    expect(parseDocument(sharedChildren(30))).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("reads a tree whose sections each hold their own children", () => {
    const document = parseDocument({
      root: "root",
      elements: {
        root: { type: "Section", props: {}, children: ["a", "b"] },
        a: { type: "Markdown", props: { content: "one" } },
        b: { type: "Markdown", props: { content: "two" } },
      },
    });
    const root = document?.root as { children: unknown[] } | undefined;
    expect(root?.children).toHaveLength(2);
  });
});

describe("the console's DataTable", () => {
  it("shows only a row's own cells, never Object's built-ins for a column named like one", () => {
    const { html } = renderBody({
      root: "root",
      elements: {
        root: { type: "Section", props: {}, children: ["table"] },
        table: { type: "DataTable", props: { columns: ["constructor", "plan"], rows: [{ plan: "team" }] } },
      },
    });
    expect(String(html)).not.toContain("native code");
    expect(String(html)).toContain("team");
  });
});
