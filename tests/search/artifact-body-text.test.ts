import { BODY_TEXT_BUDGET, artifactBodyText } from "../../src/search/artifact-body-text";

const tree = (elements: Record<string, unknown>) => ({
  root: "root",
  elements: { root: { type: "Section", props: { title: "Report" }, children: Object.keys(elements) }, ...elements },
});

describe("artifactBodyText", () => {
  it("keeps a body within the budget whole, parts joined by blank lines", () => {
    const content = tree({
      intro: { type: "Markdown", props: { content: "Churn **doubled**." } },
      table: { type: "DataTable", props: { columns: ["region", "churn"], rows: [["EMEA", 0.12], ["AMER", 0.08]], caption: "By region" } },
      tip: { type: "Callout", props: { type: "info", text: "Check Q4." } },
    });
    expect(artifactBodyText(content)).toBe("Report\n\nChurn **doubled**.\n\nBy region\n\nregion | churn\n\nEMEA | 0.12\n\nAMER | 0.08\n\ninfo\n\nCheck Q4.");
  });

  it("stops at the budget inside a table far longer than it", () => {
    const rows = Array.from({ length: 100_000 }, (_, i) => [i]);
    const text = artifactBodyText(tree({ table: { type: "DataTable", props: { columns: ["n"], rows } } }));
    expect(text.length).toBe(BODY_TEXT_BUDGET);
    expect(text.startsWith("Report\n\nn\n\n0\n\n1\n\n")).toBe(true);
  });

  it("reads no block after the budget is spent", () => {
    const text = artifactBodyText(
      tree({ long: { type: "Markdown", props: { content: "x".repeat(BODY_TEXT_BUDGET * 2) } }, after: { type: "Markdown", props: { content: "AFTER" } } }),
    );
    expect(text.length).toBe(BODY_TEXT_BUDGET);
    expect(text).not.toContain("AFTER");
  });

  it("cuts a string body at the budget", () => {
    expect(artifactBodyText("y".repeat(BODY_TEXT_BUDGET + 5))).toBe("y".repeat(BODY_TEXT_BUDGET));
    expect(artifactBodyText("short")).toBe("short");
  });
});
