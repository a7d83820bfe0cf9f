import { z } from "zod";
import { MAX_BODY_TREE_DEPTH } from "../search/artifact-body-text";

/**
 * The content format of contract §2.8, parsed for display. Content is stored unvalidated, so this
 * is where "does not match the shape" is decided: anything off (unknown block type, bad props, a
 * child key that does not exist, a cycle, a root that is not a Section) makes the whole body fall
 * back to the summary, findings and recommendations.
 */
const text = z.string();
const cell = z.union([z.string(), z.number(), z.boolean(), z.null()]);

const MetricSchema = z.object({
  label: text,
  value: z.union([z.string(), z.number()]),
  change: z.union([z.string(), z.number()]).optional(),
  direction: z.enum(["up", "down", "neutral"]).optional(),
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
      rows: z.array(z.union([z.array(cell), z.record(z.string(), cell)])),
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

/** Blocks in document order, Sections as nested nodes; provenance blocks collected apart. */
export type DocumentNode = { block: Exclude<Block, { type: "Section" }> } | { section: BlockOf<"Section">; children: DocumentNode[] };

export interface ParsedDocument {
  root: DocumentNode & { section: BlockOf<"Section"> };
  evidence: Array<BlockOf<"DataSourceList"> | BlockOf<"SqlEvidence">>;
}


/** The document, or undefined when the content does not match §2.8. */
export function parseDocument(content: unknown): ParsedDocument | undefined {
  const parsed = TreeSchema.safeParse(content);
  if (!parsed.success) return undefined;
  const { root, elements } = parsed.data;
  const rootBlock = elements[root];
  if (!rootBlock || rootBlock.type !== "Section") return undefined;
  const evidence: ParsedDocument["evidence"] = [];
  // Each element may stand once in the document: a loop, or children shared level after level
  // (whose walk doubles with each level), makes the body fall back instead.
  const placed = new Set<string>();

  function build(key: string, depth: number): DocumentNode | undefined {
    const block = elements[key];
    if (!block || placed.has(key) || depth > MAX_BODY_TREE_DEPTH) return undefined;
    placed.add(key);
    if (block.type !== "Section") {
      if (block.type === "DataSourceList" || block.type === "SqlEvidence") evidence.push(block);
      return { block };
    }
    const children: DocumentNode[] = [];
    for (const child of block.children) {
      const node = build(child, depth + 1);
      if (!node) return undefined;
      children.push(node);
    }
    return { section: block, children };
  }

  const tree = build(root, 0);
  if (!tree || !("section" in tree)) return undefined;
  return { root: tree, evidence };
}
