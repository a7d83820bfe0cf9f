import { isRecord } from "../lib/is-record";
import { z } from "./zod";

/**
 * The element tree of an artifact body (contract §2.8): `{root, elements}`, where `elements` is a
 * flat map of blocks and a block lists its children by key. Bodies are stored as pushed, so every
 * reader decides here how much of a tree it trusts: text for search and `fetch` takes whatever is
 * there, the console shows a body only when all of it matches the format.
 */

/**
 * How deep a tree is followed, by every reader: deep enough for any real document, and a bound on
 * what a hostile body can cost (the walk recurses once per level).
 */
export const MAX_BODY_TREE_DEPTH = 32;

const text = z.string();

const MetricSchema = z.object({
  label: text,
  value: z.union([z.string(), z.number()]),
  change: z.union([z.string(), z.number()]).optional(),
  direction: z.enum(["up", "down", "neutral"]).optional(),
});
type Cell = string | number | boolean | null;
const isCell = (value: unknown): value is Cell =>
  value === null || typeof value === "string" || typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value));
type Row = Cell[] | Record<string, Cell>;
const isRow = (row: unknown): row is Row => (Array.isArray(row) ? row.every(isCell) : isRecord(row) && Object.values(row).every(isCell));
/**
 * Table rows, each an array of cells or an object of cells keyed by column. Checked by hand rather
 * than as Zod schemas per row, which cost microseconds a row: a table may have 100,000 rows within
 * the body limit, and the console checks the whole body on every page view.
 */
const RowsSchema = z.custom<Row[]>((rows) => Array.isArray(rows) && rows.every(isRow), {
  message: "rows must be arrays of cells or objects of cells",
});
const ColumnSchema = z.union([z.string(), z.object({ key: z.string().optional(), label: z.string().optional(), header: z.string().optional() })]);
const SourceSchema = z.object({ name: text, type: text });

const BlockSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("Section"), props: z.object({ title: text.optional() }).optional(), children: z.array(z.string()).default([]) }),
  z.object({ type: z.literal("Markdown"), props: z.object({ content: text }) }),
  z.object({ type: z.literal("MetricRow"), props: z.object({ items: z.array(MetricSchema).min(1).max(8) }) }),
  z.object({ type: z.literal("ChartImage"), props: z.object({ src: text, caption: text.optional(), alt: text.optional() }) }),
  z.object({ type: z.literal("Callout"), props: z.object({ type: z.enum(["recommendation", "warning", "info"]), text }) }),
  z.object({
    type: z.literal("DataTable"),
    props: z.object({
      columns: z.array(ColumnSchema).min(1),
      rows: RowsSchema,
      caption: text.optional(),
    }),
  }),
  z.object({ type: z.literal("DataSourceList"), props: z.object({ sources: z.array(SourceSchema) }) }),
  z.object({
    type: z.literal("SqlEvidence"),
    props: z.object({ connectionName: text, sql: text, rowCount: z.number().optional(), connectorType: text.optional() }),
  }),
]);

const TreeSchema = z.object({ root: z.string(), elements: z.record(z.string(), BlockSchema) });

export type Block = z.output<typeof BlockSchema>;
export type BlockOf<T extends Block["type"]> = Extract<Block, { type: T }>;
export type Column = z.output<typeof ColumnSchema>;

/** An element as the walk places it; `depth` is 0 for the root. */
export interface TreeEntry<E> {
  key: string;
  element: E;
  depth: number;
}

/**
 * What to do with a child that cannot be placed: a key that is not an own element, an element
 * already placed (a cycle, or a child shared by two sections), one deeper than the bound. Text
 * readers skip it and keep the rest; display refuses the whole tree, because a body shown with
 * parts missing would misstate what the agent pushed.
 */
export type Unplaceable = "skip" | "refuse";

/**
 * The elements reachable from `root` in document order: an element, then the subtree of each of its
 * children in the order listed. Each element is placed at most once, so neither a loop nor
 * children shared level after level (2^levels paths through `levels` elements) make the walk cost
 * more than the number of elements. Undefined when a child is refused.
 */
export function walkElementTree<E>(
  root: string,
  elements: Readonly<Record<string, E>>,
  unplaceable: Unplaceable,
): Array<TreeEntry<E & Record<string, unknown>>> | undefined {
  const entries: Array<TreeEntry<E & Record<string, unknown>>> = [];
  const placed = new Set<string>();
  let refused = false;
  const visit = (key: unknown, depth: number): void => {
    // Own keys only: a child named "constructor" must not find Object's built-ins.
    const element = typeof key === "string" && Object.hasOwn(elements, key) ? elements[key] : undefined;
    if (typeof key !== "string" || !isRecord(element) || placed.has(key) || depth > MAX_BODY_TREE_DEPTH) {
      if (unplaceable === "refuse") refused = true;
      return;
    }
    placed.add(key);
    entries.push({ key, element, depth });
    if (!Array.isArray(element.children)) return;
    for (const child of element.children) {
      if (refused) return;
      visit(child, depth + 1);
    }
  };
  visit(root, 0);
  return refused ? undefined : entries;
}

/**
 * The elements of a body for reading its text: any object with a string `root` and an object
 * `elements` is walked, its elements taken as they are, and what cannot be placed skipped.
 * Anything else has no elements.
 */
export function lenientTreeEntries(content: unknown): Array<TreeEntry<Record<string, unknown>>> {
  if (!isRecord(content) || typeof content.root !== "string" || !isRecord(content.elements)) return [];
  return walkElementTree(content.root, content.elements, "skip") ?? [];
}

/**
 * The blocks of a body that matches §2.8 in full, for display: every element (reachable or not) a
 * known block with props of its shape, the root a Section, every child placed. Otherwise undefined.
 */
export function strictTreeEntries(content: unknown): Array<TreeEntry<Block>> | undefined {
  const parsed = TreeSchema.safeParse(content);
  if (!parsed.success) return undefined;
  const entries = walkElementTree(parsed.data.root, parsed.data.elements, "refuse");
  return entries?.[0]?.element.type === "Section" ? entries : undefined;
}
