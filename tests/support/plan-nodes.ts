/** A node of an EXPLAIN (FORMAT JSON) plan, with the fields the plan-reading tests look at. */
export interface PlanNode {
  "Node Type"?: string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Join Filter"?: number;
  "Shared Hit Blocks"?: number;
  "Shared Read Blocks"?: number;
  [key: string]: unknown;
}

/** Every plan node of an EXPLAIN (FORMAT JSON), a Citus task's remote plan included. */
export function planNodes(value: unknown, found: PlanNode[] = []): PlanNode[] {
  if (Array.isArray(value)) for (const item of value) planNodes(item, found);
  else if (value !== null && typeof value === "object") {
    const node = value as PlanNode;
    if (typeof node["Node Type"] === "string") found.push(node);
    for (const child of Object.values(node)) planNodes(child, found);
  }
  return found;
}

/** Whether a node reads the table (on Citus, one of its shards: artifacts_102008). */
export const readsTable = (node: PlanNode, table: string) => node["Relation Name"] !== undefined && new RegExp(`^${table}(_\\d+)?$`).test(node["Relation Name"]);

/** An EXPLAIN's JSON plan, whether the driver returned it parsed or as text. */
export const parsedPlan = (value: unknown): unknown => (typeof value === "string" ? JSON.parse(value) : value);
