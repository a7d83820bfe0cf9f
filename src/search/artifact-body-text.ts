import { lenientTreeEntries } from "../contracts/content-tree";
import { isRecord } from "../lib/is-record";
import { cutAt } from "../lib/cut-text";

/**
 * Characters of body text an artifact contributes to the index. The text feeds the lexical search
 * document and the body chunks; bodies are stored as pushed, so without a budget a 100,000-row table
 * became ≈ 690,000 characters of numbers to tokenise. Well above the prose of a real report, so
 * such bodies are indexed whole.
 */
export const BODY_TEXT_BUDGET = 100_000;

const PART_SEPARATOR = "\n\n";

/**
 * The readable text of an artifact body: a string body as it is, an element tree's blocks in
 * document order (Markdown prose, callouts, captions, metric labels and values, table cells).
 * Image and file addresses are left out: they carry no meaning a reader searches for. At most
 * `BODY_TEXT_BUDGET` characters: the walk stops collecting once the budget is spent, so a huge
 * table costs no more than the budget.
 */
export function artifactBodyText(content: unknown): string {
  if (typeof content === "string") return content.length <= BODY_TEXT_BUDGET ? content : cutAt(content, BODY_TEXT_BUDGET);
  const parts: string[] = [];
  let length = 0;
  const add = (part: string): boolean => {
    if (part.trim() === "") return true;
    const separator = parts.length === 0 ? 0 : PART_SEPARATOR.length;
    const room = BODY_TEXT_BUDGET - length - separator;
    if (room <= 0) return false;
    const kept = part.length <= room ? part : cutAt(part, room);
    parts.push(kept);
    length += separator + kept.length;
    return kept.length === part.length;
  };
  for (const { element } of lenientTreeEntries(content)) {
    if (!blockText(element.type, isRecord(element.props) ? element.props : {}, add)) break;
  }
  return parts.join(PART_SEPARATOR);
}

/** Whether the collector still has room after one part. */
type Collect = (part: string) => boolean;

const ADDRESS_PROPS = new Set(["src", "href", "url", "connectionName", "connectorType", "id"]);

/** Hands the block's text to `collect` part by part; false once the budget is spent. */
function blockText(type: unknown, props: Record<string, unknown>, collect: Collect): boolean {
  switch (type) {
    case "Markdown":
      return collect(stringOf(props.content));
    case "MetricRow":
      return collect(arrayOf(props.items).map((item) => (isRecord(item) ? [item.label, item.value, item.change].filter(isText).join(" ") : "")).join("; "));
    case "DataTable":
      if (!collect(stringOf(props.caption)) || !collect(cellsOf(props.columns))) return false;
      // Row by row, so a table far past the budget is not turned into text first.
      for (const row of arrayOf(props.rows)) if (!collect(cellsOf(row))) return false;
      return true;
    case "SqlEvidence":
    case "DataSourceList":
      // Provenance, not prose: the SQL and source names are searchable through other fields.
      return true;
    default:
      // Callout text, chart captions and blocks of types this version does not know.
      for (const [name, value] of Object.entries(props)) {
        if (isText(value) && !ADDRESS_PROPS.has(name) && !collect(String(value))) return false;
      }
      return true;
  }
}

const isText = (value: unknown): value is string | number => typeof value === "string" || typeof value === "number";
const stringOf = (value: unknown) => (typeof value === "string" ? value : "");
const arrayOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const cellsOf = (value: unknown) =>
  arrayOf(value)
    .map((cell) => (isText(cell) ? String(cell) : isRecord(cell) ? Object.values(cell).filter(isText).join(" ") : ""))
    .join(" | ");
