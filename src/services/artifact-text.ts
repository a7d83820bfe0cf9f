import { lenientTreeEntries } from "../contracts/content-tree";
import { isRecord } from "../lib/is-record";
import type { ArtifactRecord } from "../repositories/artifact.repository";
import { cutAt } from "../lib/cut-text";
import { JsonText } from "../lib/json-text";
import { CONTENT_LIMIT } from "./artifact-content";

/** The readable text of an artifact, cut like the REST detail's content. */
export interface ArtifactText {
  text: string;
  truncated: boolean;
}

/**
 * Renders an artifact as plain text for a reader (a person or a model): headline, why, findings,
 * recommendations, confidence and its explanation, then the body. Markdown is kept as written;
 * element-tree blocks (contract §2.8) become their text. Everything is agent-pushed content: it is
 * returned as text, never interpreted.
 */
export function renderArtifactText(artifact: Omit<ArtifactRecord, "content"> & { content: unknown }): ArtifactText {
  const sections = [
    artifact.summary,
    artifact.why,
    list("Key findings", stringsOf(artifact.keyFindings)),
    list("Recommendations", recommendationLines(artifact)),
    `Confidence: ${artifact.confidence}. ${artifact.confidenceExplanation}`.trim(),
    renderBody(artifact.content instanceof JsonText ? artifact.content.value() : artifact.content),
  ];
  const text = sections.filter((section) => section !== "").join("\n\n");
  if (text.length <= CONTENT_LIMIT) return { text, truncated: false };
  return { text: cutAt(text, CONTENT_LIMIT), truncated: true };
}

/** The body as text: a string as it is, an element tree block by block, anything else nothing. */
export function renderBody(content: unknown): string {
  if (typeof content === "string") return content.trim();
  return lenientTreeEntries(content)
    .map(({ element }) => renderBlock(element))
    .filter((block) => block !== "")
    .join("\n\n");
}

function renderBlock(element: Record<string, unknown>): string {
  const props = isRecord(element.props) ? element.props : {};
  switch (element.type) {
    case "Markdown":
      return text(props.content);
    case "Callout":
      return labelled(text(props.type) || "note", text(props.text));
    case "MetricRow":
      return recordsOf(props.items)
        .map((item) => `${text(item.label)}: ${text(item.value)}${text(item.change) ? ` (${text(item.change)})` : ""}`)
        .join("\n");
    case "ChartImage":
      return text(props.caption) ? `Chart: ${text(props.caption)}` : "";
    case "DataTable":
      return renderTable(props);
    case "DataSourceList":
      return list("Data sources", recordsOf(props.sources).map((source) => [text(source.name), text(source.type)].filter(Boolean).join(" — ")));
    case "SqlEvidence":
      return [`SQL on ${text(props.connectionName) || "a data source"}:`, text(props.sql)].join("\n");
    default:
      return "";
  }
}

function renderTable(props: Record<string, unknown>): string {
  const columns = Array.isArray(props.columns) ? props.columns.map((column) => (isRecord(column) ? text(column.label ?? column.key) : text(column))) : [];
  const rows = Array.isArray(props.rows)
    ? props.rows.map((row) => (Array.isArray(row) ? row.map(text) : isRecord(row) ? Object.values(row).map(text) : [text(row)]))
    : [];
  const lines = [columns, ...rows].filter((cells) => cells.length > 0).map((cells) => cells.join(" | "));
  return [text(props.caption), ...lines].filter(Boolean).join("\n");
}

function recommendationLines(artifact: Pick<ArtifactRecord, "recommendation" | "recommendations">): string[] {
  // Under "Recommendations" only warnings and notes need their kind said.
  const structured = recordsOf(artifact.recommendations).map((item) =>
    labelled(text(item.type) === "recommendation" ? "" : text(item.type), text(item.text)),
  );
  const legacy = artifact.recommendation ? [artifact.recommendation] : [];
  return [...structured, ...legacy].filter(Boolean);
}

const labelled = (label: string, body: string) => (body === "" ? "" : label === "" ? body : `${label}: ${body}`);
const list = (title: string, lines: string[]) => (lines.length === 0 ? "" : `${title}:\n${lines.map((line) => `- ${line}`).join("\n")}`);
const recordsOf = (value: unknown) => (Array.isArray(value) ? value.filter(isRecord) : []);
const stringsOf = (value: unknown) => (Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : []);

/** Text of a scalar cell or prop; objects and arrays are not shown as JSON noise. */
function text(value: unknown): string {
  if (typeof value === "string") return value.trim();
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return "";
}
