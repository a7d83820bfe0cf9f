import { lenientTreeEntries } from "../contracts/content-tree";
import { isRecord } from "../lib/is-record";

/**
 * The readable text of an artifact body: a string body as it is, an element tree's blocks in
 * document order (Markdown prose, callouts, captions, metric labels and values, table cells).
 * Image and file addresses are left out: they carry no meaning a reader searches for.
 */
export function artifactBodyText(content: unknown): string {
  if (typeof content === "string") return content;
  return lenientTreeEntries(content)
    .flatMap(({ element }) => blockText(element.type, isRecord(element.props) ? element.props : {}))
    .filter((part) => part.trim() !== "")
    .join("\n\n");
}

const ADDRESS_PROPS = new Set(["src", "href", "url", "connectionName", "connectorType", "id"]);

function blockText(type: unknown, props: Record<string, unknown>): string[] {
  switch (type) {
    case "Markdown":
      return [stringOf(props.content)];
    case "MetricRow":
      return [arrayOf(props.items).map((item) => (isRecord(item) ? [item.label, item.value, item.change].filter(isText).join(" ") : "")).join("; ")];
    case "DataTable":
      return [stringOf(props.caption), cellsOf(props.columns), ...arrayOf(props.rows).map(cellsOf)];
    case "SqlEvidence":
    case "DataSourceList":
      // Provenance, not prose: the SQL and source names are searchable through other fields.
      return [];
    default:
      // Callout text, chart captions and blocks of types this version does not know.
      return Object.entries(props).flatMap(([name, value]) => (isText(value) && !ADDRESS_PROPS.has(name) ? [String(value)] : []));
  }
}

const isText = (value: unknown): value is string | number => typeof value === "string" || typeof value === "number";
const stringOf = (value: unknown) => (typeof value === "string" ? value : "");
const arrayOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const cellsOf = (value: unknown) =>
  arrayOf(value)
    .map((cell) => (isText(cell) ? String(cell) : isRecord(cell) ? Object.values(cell).filter(isText).join(" ") : ""))
    .join(" | ");
