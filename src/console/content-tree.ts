import { strictTreeEntries, type Block, type BlockOf } from "../contracts/content-tree";

type SectionNode = { section: BlockOf<"Section">; children: DocumentNode[] };

/** Blocks in document order, Sections as nested nodes; provenance blocks collected apart. */
export type DocumentNode = { block: Exclude<Block, { type: "Section" }> } | SectionNode;

export interface ParsedDocument {
  root: SectionNode;
  evidence: Array<BlockOf<"DataSourceList"> | BlockOf<"SqlEvidence">>;
}

/**
 * The document to display, or undefined when the content does not match §2.8 in full (an unknown
 * block type, bad props, a child key that does not exist, a cycle, a root that is not a Section):
 * the page then falls back to the summary, findings and recommendations.
 */
export function parseDocument(content: unknown): ParsedDocument | undefined {
  const entries = strictTreeEntries(content);
  if (!entries) return undefined;
  const evidence: ParsedDocument["evidence"] = [];
  // In document order, an element's parent is the Section met last one level up.
  const open: SectionNode[] = [];
  for (const { element: block, depth } of entries) {
    const node: DocumentNode = block.type === "Section" ? { section: block, children: [] } : { block };
    if (block.type === "DataSourceList" || block.type === "SqlEvidence") evidence.push(block);
    if (depth > 0) open[depth - 1]!.children.push(node);
    if ("section" in node) open[depth] = node;
  }
  return { root: open[0]!, evidence };
}
