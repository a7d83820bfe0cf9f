/** A draft whose body uses every block type of contract §2.8, as an agent would push it. */
export const elementTreeArtifact = {
  summary: "Enterprise churn doubled in Q3 after the pricing change",
  why: "Enterprise accounts are 61% of ARR; at this rate net revenue retention falls below 100% by Q1.",
  confidence: 0.82,
  confidenceExplanation: "Fourteen months of subscription events; the Q3 cohort is complete, October is partial.",
  keyFindings: [
    "Enterprise logo churn rose from 1.9% to 4.1% quarter over quarter",
    "Two thirds of churned accounts had a seat reduction in the month before cancelling",
    "SMB churn is flat at 3.2%",
  ],
  recommendations: [
    { text: "Offer annual plans with a seat floor to enterprise accounts renewing in Q4", type: "recommendation" },
    { text: "October is partial: re-run once the month closes", type: "warning" },
    { text: "Churn is counted on cancellation date, as the workspace defines it", type: "info" },
  ],
  dataSources: [
    { type: "database", name: "warehouse" },
    { type: "file", name: "pricing-changes.csv" },
  ],
  codeExecuted: [
    { language: "sql", title: "Quarterly logo churn", code: "SELECT quarter, segment, churned::float / active AS churn\nFROM churn_by_quarter\nORDER BY quarter", output: "8 rows" },
  ],
  content: {
    root: "root",
    elements: {
      root: { type: "Section", props: {}, children: ["intro", "metrics", "chart", "callout", "table", "sources", "sql"] },
      intro: {
        type: "Markdown",
        props: { content: "## What changed\n\nAfter the **June pricing change**, enterprise churn rose sharply. See the [pricing memo](https://example.com/memo)." },
      },
      metrics: {
        type: "MetricRow",
        props: {
          items: [
            { label: "Enterprise churn", value: "4.1%", change: "+2.2 pp", direction: "up" },
            { label: "SMB churn", value: "3.2%", change: "0.0 pp", direction: "neutral" },
            { label: "Net revenue retention", value: "103%", change: "−6 pp", direction: "down" },
          ],
        },
      },
      chart: { type: "ChartImage", props: { src: "/console/assets/example-chart.svg", caption: "Logo churn by quarter and segment" } },
      callout: { type: "Callout", props: { type: "recommendation", text: "Offer annual plans with a seat floor before Q4 renewals." } },
      table: {
        type: "DataTable",
        props: {
          columns: ["Quarter", "Enterprise", "SMB"],
          rows: [
            ["2026 Q1", "1.8%", "3.1%"],
            ["2026 Q2", "1.9%", "3.3%"],
            ["2026 Q3", "4.1%", "3.2%"],
          ],
          caption: "Logo churn by segment",
        },
      },
      sources: { type: "DataSourceList", props: { sources: [{ name: "warehouse", type: "database" }, { name: "pricing-changes.csv", type: "file" }] } },
      sql: {
        type: "SqlEvidence",
        props: { connectionName: "warehouse", connectorType: "postgres", rowCount: 8, sql: "SELECT quarter, segment, churned::float / active AS churn FROM churn_by_quarter" },
      },
    },
  },
};
