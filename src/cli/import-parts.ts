// The admin import takes at most 1 MiB of JSON a request (the shared body limit), and an export of
// a large workspace is many times that. The CLI sends such a document in parts of whole entries,
// in the document's order: what the import upserts by name (context, directives, data sources,
// skills) before what it appends (memories, artifacts).

/** JSON bytes a part may hold: below the 1 MiB body limit, with room for the wrapping. */
export const PART_BUDGET_BYTES = 900_000;

type Document = Record<string, unknown>;

/** The sections sent as lists of entries, in the order they are sent. */
const LIST_SECTIONS = ["directives", "dataSources", "skills", "memories", "artifacts"] as const;

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value), "utf8");

/**
 * The document as one or more documents, each at most `budget` bytes of JSON unless a single
 * entry is larger (that part is then refused by the server, naming the limit). A document within
 * the budget is returned whole, so that it stays all or nothing.
 */
export function importParts(document: Document, budget = PART_BUDGET_BYTES): Document[] {
  if (bytesOf(document) <= budget) return [document];
  const parts: Document[] = [];
  let current: Document = {};
  let size = 2;
  const flush = () => {
    if (Object.keys(current).length > 0) parts.push(current);
    current = {};
    size = 2;
  };
  for (const [key, value] of Object.entries(document)) {
    if ((LIST_SECTIONS as readonly string[]).includes(key) && Array.isArray(value)) continue;
    const entrySize = bytesOf({ [key]: value });
    if (size + entrySize > budget) flush();
    current[key] = value;
    size += entrySize;
  }
  for (const section of LIST_SECTIONS) {
    const entries = document[section];
    if (!Array.isArray(entries)) continue;
    for (const entry of entries) {
      const entrySize = bytesOf(entry) + 1;
      const opening = current[section] === undefined ? bytesOf(section) + 4 : 0;
      if (size + opening + entrySize > budget && Object.keys(current).length > 0) flush();
      const list = (current[section] ??= []) as unknown[];
      list.push(entry);
      size += (list.length === 1 ? bytesOf(section) + 4 : 0) + entrySize;
    }
  }
  flush();
  return parts;
}

/** The import's answer summed over parts: counts added, artifact ids in order. */
export interface ImportTotals {
  imported: Record<string, number>;
  artifactIds: string[];
}

export function addImportAnswer(totals: ImportTotals, answer: unknown): ImportTotals {
  const { imported = {}, artifactIds = [] } = (answer ?? {}) as Partial<ImportTotals>;
  for (const [kind, count] of Object.entries(imported)) totals.imported[kind] = (totals.imported[kind] ?? 0) + count;
  totals.artifactIds.push(...artifactIds);
  return totals;
}
