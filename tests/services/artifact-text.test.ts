import { renderBody } from "../../src/services/artifact-text";

describe("renderBody", () => {
  it("keeps Markdown text as written", () => {
    expect(renderBody("## Churn\n\nEnterprise churn doubled.\n")).toBe("## Churn\n\nEnterprise churn doubled.");
  });

  it("renders nothing for structured content that is not an element tree", () => {
    expect(renderBody({ rows: [1, 2, 3] })).toBe("");
  });

  it("visits each element once even when children form a loop", () => {
    const looped = {
      root: "a",
      elements: {
        a: { type: "Section", children: ["b"] },
        b: { type: "Section", children: ["a", "text"] },
        text: { type: "Markdown", props: { content: "once" } },
      },
    };
    expect(renderBody(looped)).toBe("once");
  });

  it("renders a shared child once, so trees that fan into each other stay linear", () => {
    const elements: Record<string, unknown> = { leaf: { type: "Markdown", props: { content: "leaf" } } };
    for (let level = 0; level < 30; level++) {
      elements[`s${level}`] = { type: "Section", children: [level === 29 ? "leaf" : `s${level + 1}`, level === 29 ? "leaf" : `s${level + 1}`] };
    }
    expect(renderBody({ root: "s0", elements })).toBe("leaf");
  });

  it("shows scalar props only, never objects as JSON", () => {
    const tree = { root: "r", elements: { r: { type: "Callout", props: { type: "info", text: { nested: "x" } } } } };
    expect(renderBody(tree)).toBe("");
  });

  it("renders object rows of a DataTable by their values", () => {
    const tree = {
      root: "r",
      elements: { r: { type: "DataTable", props: { columns: [{ key: "region", label: "Region" }], rows: [{ region: "EMEA" }] } } },
    };
    expect(renderBody(tree)).toBe("Region\nEMEA");
  });
});
