import type { BlockOf, Column } from "../contracts/content-tree";
import { parseDocument, type DocumentNode, type ParsedDocument } from "./content-tree";
import { html, type SafeHtml } from "./html";
import { isAllowedImageSource, renderMarkdown } from "./markdown";
import { cutAt } from "../lib/cut-text";
import { MAX_BODY_ELEMENTS, MAX_CELL_CHARS, MAX_METRICS_PER_ROW, MAX_TABLE_COLUMNS, MAX_TABLE_ROWS, MAX_TEXT_CHARS } from "./render-limits";

const ARROWS = { up: "▲", down: "▼", neutral: "▶" } as const;
const CALLOUT_LABELS = { recommendation: "Recommendation", warning: "Warning", info: "Note" } as const;

const count = (n: number) => n.toLocaleString("en");

/** Says what a cap left out; the full content is behind the page's JSON link. */
const omittedNote = (omitted: number, what: string) =>
  omitted > 0 ? html`<p class="muted small omitted" data-omitted="${what}">${count(omitted)} more ${what} not shown.</p>` : html``;

/** The first `limit` characters of a text and how many were left out. */
function clip(text: string, limit: number): { text: string; omitted: number } {
  if (text.length <= limit) return { text, omitted: 0 };
  const shown = cutAt(text, limit);
  return { text: shown, omitted: text.length - shown.length };
}

function boundedText(text: string): SafeHtml {
  const clipped = clip(text, MAX_TEXT_CHARS);
  return html`${clipped.text}${omittedNote(clipped.omitted, "characters")}`;
}

/** Preformatted text, with its note outside the `<pre>`. */
function boundedCode(text: string): SafeHtml {
  const clipped = clip(text, MAX_TEXT_CHARS);
  return html`<pre><code>${clipped.text}</code></pre>${omittedNote(clipped.omitted, "characters")}`;
}

function boundedMarkdown(text: string): SafeHtml {
  const clipped = clip(text, MAX_TEXT_CHARS);
  return html`${renderMarkdown(clipped.text)}${omittedNote(clipped.omitted, "characters")}`;
}

const cellText = (value: string) => (value.length <= MAX_CELL_CHARS ? value : `${cutAt(value, MAX_CELL_CHARS)}…`);

function metricRow({ props }: BlockOf<"MetricRow">): SafeHtml {
  return html`<div class="block metric-row" data-block="MetricRow">${props.items.slice(0, MAX_METRICS_PER_ROW).map(
    (item) => html`<div class="metric">
      <div class="metric-label">${item.label}</div>
      <div class="metric-value">${item.value}</div>
      ${item.change !== undefined || item.direction
        ? html`<div class="metric-change direction-${item.direction ?? "neutral"}"><span aria-hidden="true">${ARROWS[item.direction ?? "neutral"]}</span>
            ${item.change ?? ""}<span class="visually-hidden">${item.direction ? ` (${item.direction})` : ""}</span></div>`
        : ""}
    </div>`,
  )}${omittedNote(props.items.length - MAX_METRICS_PER_ROW, "metrics")}</div>`;
}

function chartImage({ props }: BlockOf<"ChartImage">): SafeHtml {
  const caption = props.caption ? html`<figcaption>${boundedText(props.caption)}</figcaption>` : "";
  if (!isAllowedImageSource(props.src)) {
    return html`<figure class="block chart" data-block="ChartImage"><div class="image-refused">Image not shown: only https: images
      or images from this server are displayed.<code>${props.src.slice(0, 200)}</code></div>${caption}</figure>`;
  }
  return html`<figure class="block chart" data-block="ChartImage">
    <img src="${props.src}" alt="${cutAt(props.alt ?? props.caption ?? "Chart", MAX_CELL_CHARS)}" loading="lazy" referrerpolicy="no-referrer">${caption}</figure>`;
}

const columnLabel = (column: Column) => (typeof column === "string" ? column : (column.label ?? column.header ?? column.key ?? ""));
const columnKey = (column: Column) => (typeof column === "string" ? column : (column.key ?? column.label ?? column.header ?? ""));

function dataTable({ props }: BlockOf<"DataTable">): SafeHtml {
  const columns = props.columns.slice(0, MAX_TABLE_COLUMNS);
  return html`<figure class="block data-table" data-block="DataTable"><div class="table-scroll"><table>
    <thead><tr>${columns.map((c) => html`<th scope="col">${cellText(columnLabel(c))}</th>`)}</tr></thead>
    <tbody>${props.rows.slice(0, MAX_TABLE_ROWS).map(
      (row) =>
        html`<tr>${columns.map((column, index) => {
          const key = columnKey(column);
          // Own cells only: a column named "constructor" must not show Object's built-ins.
          const value = Array.isArray(row) ? row[index] : Object.hasOwn(row, key) ? row[key] : undefined;
          return html`<td class="${typeof value === "number" ? "num" : ""}">${value === null || value === undefined ? "" : cellText(String(value))}</td>`;
        })}</tr>`,
    )}</tbody></table></div>${omittedNote(props.rows.length - MAX_TABLE_ROWS, "rows")}${omittedNote(props.columns.length - MAX_TABLE_COLUMNS, "columns")}${props.caption ? html`<figcaption>${boundedText(props.caption)}</figcaption>` : ""}</figure>`;
}

/**
 * Elements are rendered in document order until the body's element cap; provenance blocks within
 * the cap are collected for the evidence appendix as they are met, so the appendix is capped too.
 */
interface RenderBudget {
  left: number;
  evidence: ParsedDocument["evidence"];
}

const elementCount = (node: DocumentNode): number =>
  "section" in node ? node.children.reduce((sum, child) => sum + elementCount(child), 1) : 1;

function renderNode(node: DocumentNode, budget: RenderBudget): SafeHtml {
  if (budget.left <= 0) return html``;
  budget.left -= 1;
  if ("section" in node) {
    const title = node.section.props?.title;
    return html`<section class="block section" data-block="Section">${title ? html`<h3>${clip(title, MAX_TEXT_CHARS).text}</h3>` : ""}${node.children.map((child) =>
      renderNode(child, budget),
    )}</section>`;
  }
  const { block } = node;
  switch (block.type) {
    case "Markdown":
      return html`<div class="block markdown prose" data-block="Markdown">${boundedMarkdown(block.props.content)}</div>`;
    case "MetricRow":
      return metricRow(block);
    case "ChartImage":
      return chartImage(block);
    case "Callout":
      return html`<aside class="block callout callout-${block.props.type}" data-block="Callout">
        <strong>${CALLOUT_LABELS[block.props.type]}</strong> ${boundedText(block.props.text)}</aside>`;
    case "DataTable":
      return dataTable(block);
    // Provenance blocks are moved into the evidence appendix.
    case "DataSourceList":
    case "SqlEvidence":
      budget.evidence.push(block);
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
          ${boundedCode(block.props.sql)}${block.props.rowCount !== undefined ? html`<p class="muted">${block.props.rowCount} rows</p>` : ""}</div>`,
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
    return { kind: "markdown", html: html`<div class="body markdown prose" data-body="markdown">${boundedMarkdown(content)}</div>` };
  }
  const document = parseDocument(content);
  if (document) {
    const budget: RenderBudget = { left: MAX_BODY_ELEMENTS, evidence: [] };
    const rendered = renderNode(document.root, budget);
    const omitted = elementCount(document.root) - MAX_BODY_ELEMENTS;
    return {
      kind: "tree",
      html: html`<div class="body" data-body="tree">${rendered}${omittedNote(omitted, "elements")}${evidenceAppendix(budget.evidence)}</div>`,
    };
  }
  const raw = JSON.stringify(content, null, 2);
  return {
    kind: "fallback",
    html: html`<div class="body fallback" data-body="fallback">
      <p class="notice">This body does not match the content format, so the artifact is shown from its summary, findings and recommendations.</p>
      <details><summary>Body as pushed (${raw.length.toLocaleString("en")} characters)</summary>${boundedCode(raw)}</details>
    </div>`,
  };
}
