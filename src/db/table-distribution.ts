/**
 * Where each table's rows live when the database is split by workspace (docs/deployment.md §6):
 * the tables that do not hold one workspace's rows, each with its reason and what it becomes on a
 * distributed PostgreSQL (Citus): `reference`, copied to every node; `local`, kept on the node the
 * service connects to (the coordinator). Every other table of the public schema is distributed by
 * workspace_id, colocated with `workspaces`, which is distributed by its own id.
 */
export const NOT_PER_WORKSPACE: Record<string, { kind: "reference" | "local"; why: string }> = {
  organizations: { kind: "reference", why: "above workspaces: one organization holds many" },
  reviewers: { kind: "reference", why: "console accounts are global by email; access to a workspace is a row of workspace_reviewers" },
  api_key_digests: {
    kind: "reference",
    why: "which key and workspace a secret's digest belongs to, read by authentication before any workspace is known: on every node, so the look-up reads one",
  },
  grant_workspaces: {
    kind: "reference",
    why: "which workspace a connector's grant belongs to, read when its access token is authenticated, before any workspace is known: on every node, so the look-up reads one",
  },
  reviewer_workspaces: {
    kind: "reference",
    why: "which workspaces a console reviewer belongs to, read on every page before a workspace is chosen: on every node, so a worker away does not take the console with it",
  },
  reviewer_sessions: { kind: "reference", why: "a reviewer's sessions, found by the digest of the cookie before any workspace is chosen" },
  sign_in_failures: { kind: "local", why: "failed sign-ins per account or client address, counted before anyone is signed in" },
  rate_limit_counters: { kind: "local", why: "hit counters per API key or client address shared by the processes (UNLOGGED)" },
  stored_blobs: {
    kind: "local",
    why: "the `database` file storage: bytes by storage key (the key names the workspace and the content's SHA-256), read by key through signed links",
  },
  oauth_records: {
    kind: "reference",
    why: "the OAuth authorization server's clients, interactions, codes and tokens, found by client id or token digest before any workspace is chosen; a grant's workspace is a row of connected_apps",
  },
  isolated_workspaces: {
    kind: "local",
    why: "which workspaces were given a node of their own, read on the coordinator by the rebalance strategy's rule (wsi_shard_allowed_on_node)",
  },
  _prisma_migrations: { kind: "local", why: "the migration runner's own bookkeeping" },
};

/** Distributed by its own id: the workspace is the row; every other distributed table is colocated with it. */
export const DISTRIBUTED_BY_ID = "workspaces";

export const distributionColumnOf = (table: string) => (table === DISTRIBUTED_BY_ID ? "id" : "workspace_id");

/** What a table becomes on Citus. */
export type Placement = { kind: "reference" } | { kind: "local" } | { kind: "distributed"; column: string };

export function placementOf(table: string): Placement {
  const shared = NOT_PER_WORKSPACE[table];
  if (shared) return { kind: shared.kind };
  return { kind: "distributed", column: distributionColumnOf(table) };
}

/**
 * Functions that read one workspace's rows, run on the node that holds the workspace: a call of
 * one on its own is sent there by Citus (by the argument naming the workspace), where the
 * function's settings (`ivfflat.probes`, the iterative scan) hold for its statement, which reads
 * the colocated shard on that node. Called on the coordinator instead, its statement would run on
 * a worker without those settings.
 */
export const DISTRIBUTED_FUNCTIONS: Array<{ signature: string; workspaceArgument: string }> = [
  { signature: "nearest_in_workspace_index(text, text, text, halfvec, text, integer, integer, integer)", workspaceArgument: "search_workspace_id" },
  {
    signature:
      "nearest_matching_in_workspace_index(text, halfvec, text, integer, integer, integer, timestamptz, timestamptz, timestamptz, timestamptz, text, double precision)",
    workspaceArgument: "search_workspace_id",
  },
];
