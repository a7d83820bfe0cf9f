import type { BlockOf, Column } from "../contracts/content-tree";
import { parseDocument, type DocumentNode, type ParsedDocument } from "./content-tree";
import { html, type SafeHtml } from "./html";
import { isAllowedImageSource, renderMarkdown } from "./markdown";

const ARROWS = { up: "▲", down: "▼", neutral: "▶" } as const;
const CALLOUT_LABELS = { recommendation: "Recommendation", warning: "Warning", info: "Note" } as const;

function metricRow({ props }: BlockOf<"MetricRow">): SafeHtml {
  return html`<div class="block metric-row" data-block="MetricRow">${props.items.map(
    (item) => html`<div class="metric">
      <div class="metric-label">${item.label}</div>
      <div class="metric-value">${item.value}</div>
      ${item.change !== undefined || item.direction
        ? html`<div class="metric-change direction-${item.direction ?? "neutral"}"><span aria-hidden="true">${ARROWS[item.direction ?? "neutral"]}</span>
            ${item.change ?? ""}<span class="visually-hidden">${item.direction ? ` (${item.direction})` : ""}</span></div>`
        : ""}
    </div>`,
  )}</div>`;
}

function chartImage({ props }: BlockOf<"ChartImage">): SafeHtml {
  const caption = props.caption ? html`<figcaption>${props.caption}</figcaption>` : "";
  if (!isAllowedImageSource(props.src)) {
    return html`<figure class="block chart" data-block="ChartImage"><div class="image-refused">Image not shown: only https: images
      or images from this server are displayed.<code>${props.src.slice(0, 200)}</code></div>${caption}</figure>`;
  }
  return html`<figure class="block chart" data-block="ChartImage">
    <img src="${props.src}" alt="${props.alt ?? props.caption ?? "Chart"}" loading="lazy" referrerpolicy="no-referrer">${caption}</figure>`;
}

const columnLabel = (column: Column) => (typeof column === "string" ? column : (column.label ?? column.header ?? column.key ?? ""));
const columnKey = (column: Column) => (typeof column === "string" ? column : (column.key ?? column.label ?? column.header ?? ""));

function dataTable({ props }: BlockOf<"DataTable">): SafeHtml {
  return html`<figure class="block data-table" data-block="DataTable"><div class="table-scroll"><table>
    <thead><tr>${props.columns.map((c) => html`<th scope="col">${columnLabel(c)}</th>`)}</tr></thead>
    <tbody>${props.rows.map(
      (row) =>
        html`<tr>${props.columns.map((column, index) => {
          const key = columnKey(column);
          // Own cells only: a column named "constructor" must not show Object's built-ins.
          const value = Array.isArray(row) ? row[index] : Object.hasOwn(row, key) ? row[key] : undefined;
          return html`<td class="${typeof value === "number" ? "num" : ""}">${value === null || value === undefined ? "" : String(value)}</td>`;
        })}</tr>`,
    )}</tbody></table></div>${props.caption ? html`<figcaption>${props.caption}</figcaption>` : ""}</figure>`;
}

function renderNode(node: DocumentNode): SafeHtml {
  if ("section" in node) {
    const title = node.section.props?.title;
    return html`<section class="block section" data-block="Section">${title ? html`<h3>${title}</h3>` : ""}${node.children.map((child) =>
      renderNode(child),
    )}</section>`;
  }
  const { block } = node;
  switch (block.type) {
    case "Markdown":
      return html`<div class="block markdown prose" data-block="Markdown">${renderMarkdown(block.props.content)}</div>`;
    case "MetricRow":
      return metricRow(block);
    case "ChartImage":
      return chartImage(block);
    case "Callout":
      return html`<aside class="block callout callout-${block.props.type}" data-block="Callout">
        <strong>${CALLOUT_LABELS[block.props.type]}</strong> ${block.props.text}</aside>`;
    case "DataTable":
      return dataTable(block);
    // Provenance blocks are moved into the evidence appendix.
    case "DataSourceList":
    case "SqlEvidence":
      return html``;
  }
}

export function dataSourceBadges(sources: Array<{ name: string; type: string }>): SafeHtml {
  return html`<ul class="badges">${sources.map(
    (source) => html`<li class="badge"><span class="badge-type">${source.type}</span> ${source.name}</li>`,
  )}</ul>`;
}

function evidenceAppendix(evidence: ParsedDocument["evidence"]): SafeHtml {
  if (evidence.length === 0) return html``;
  return html`<details class="evidence" id="evidence"><summary>Evidence appendix (${evidence.length})</summary>${evidence.map((block) =>
    block.type === "DataSourceList"
      ? html`<div class="evidence-item" data-block="DataSourceList"><h4>Data sources</h4>${dataSourceBadges(block.props.sources)}</div>`
      : html`<div class="evidence-item" data-block="SqlEvidence"><h4>SQL on ${block.props.connectionName}${block.props.connectorType ? html` <span class="badge-type">${block.props.connectorType}</span>` : ""}</h4>
          <pre><code>${block.props.sql}</code></pre>${block.props.rowCount !== undefined ? html`<p class="muted">${block.props.rowCount} rows</p>` : ""}</div>`,
  )}</details>`;
}

/**
 * The body of an artifact as §2.8 describes: an element tree block by block with the evidence
 * appendix, a string as Markdown, nothing for no body, and for anything else a note that the
 * artifact is shown from its summary, findings and recommendations (which the page shows anyway).
 */
export function renderBody(content: unknown): { kind: "tree" | "markdown" | "none" | "fallback"; html: SafeHtml } {
  if (content === null || content === undefined) return { kind: "none", html: html`` };
  if (typeof content === "string") {
    return { kind: "markdown", html: html`<div class="body markdown prose" data-body="markdown">${renderMarkdown(content)}</div>` };
  }
  const document = parseDocument(content);
  if (document) {
    return { kind: "tree", html: html`<div class="body" data-body="tree">${renderNode(document.root)}${evidenceAppendix(document.evidence)}</div>` };
  }
  const raw = JSON.stringify(content, null, 2);
  return {
    kind: "fallback",
    html: html`<div class="body fallback" data-body="fallback">
      <p class="notice">This body does not match the content format, so the artifact is shown from its summary, findings and recommendations.</p>
      <details><summary>Body as pushed (${raw.length.toLocaleString("en")} characters)</summary><pre><code>${raw.slice(0, 20_000)}</code></pre></details>
    </div>`,
  };
}
