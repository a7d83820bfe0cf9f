/**
 * How deep an element tree is followed, wherever one is walked (search text, fetch text, the
 * console): deep enough for any real document, and a bound on what a hostile body can cost.
 */
export const MAX_BODY_TREE_DEPTH = 32;

/**
 * The readable text of an artifact body: a string body as it is, an element tree's blocks in
 * document order (Markdown prose, callouts, captions, metric labels and values, table cells).
 * Image and file addresses are left out: they carry no meaning a reader searches for.
 */
export function artifactBodyText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!isRecord(content) || typeof content.root !== "string" || !isRecord(content.elements)) return "";
  const elements = content.elements;
  const parts: string[] = [];
  const seen = new Set<string>();
  const visit = (key: string, depth: number) => {
    const element = elements[key];
    if (seen.has(key) || !isRecord(element) || depth > MAX_BODY_TREE_DEPTH) return;
    seen.add(key);
    parts.push(...blockText(element.type, isRecord(element.props) ? element.props : {}));
    if (Array.isArray(element.children)) for (const child of element.children) if (typeof child === "string") visit(child, depth + 1);
  };
  visit(content.root, 0);
  return parts.filter((part) => part.trim() !== "").join("\n\n");
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

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isText = (value: unknown): value is string | number => typeof value === "string" || typeof value === "number";
const stringOf = (value: unknown) => (typeof value === "string" ? value : "");
const arrayOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const cellsOf = (value: unknown) =>
  arrayOf(value)
    .map((cell) => (isText(cell) ? String(cell) : isRecord(cell) ? Object.values(cell).filter(isText).join(" ") : ""))
    .join(" | ");
