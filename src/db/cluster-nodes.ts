import { Client } from "pg";
import { DomainError } from "../domain/errors";
import type { Logger } from "../lib/logger";
import { driverErrorSqlState, NodeUnreachableError } from "./database-errors";

/** A worker of a Citus cluster as the service last found it. */
export interface NodeReachability {
  /** host:port, as the cluster names it (pg_dist_node). */
  node: string;
  reachable: boolean;
  /** Since when, as far as this process knows (ISO 8601). */
  since: string;
}

/**
 * Which Citus workers answer, learned from the requests' own failures and slow statements and
 * checked from the coordinator until they answer again, so that the workspaces of a node that is
 * down or hangs are refused at once (503, Retry-After) without holding the connections every
 * workspace shares, while every other workspace is served as before: the pool's bulkhead
 * (session-pool.ts). On plain PostgreSQL and the embedded engine there are no workers and nothing
 * here does anything.
 */
export interface ClusterNodes {
  /** Throws `unavailable` when the node holding the workspace is known to be away; otherwise costs nothing. */
  assertReachable(workspaceId: string): Promise<void>;
  /** Learns which node holds each workspace, where not known yet (assertReachable starts it off the request's path). */
  locate(workspaceIds: string[]): Promise<void>;
  /** The error a statement for the workspace is refused with now, without waiting (undefined: send it). */
  refusal(workspaceId: string): Error | undefined;
  /**
   * Whether a request's statement for the workspace must wait before it takes a connection: when
   * the workspace's node already holds its share of the pool (nodeShare; two while it is suspected
   * of hanging), until one of them is handed back or the check says the node is away.
   */
  admission(workspaceId: string): Promise<void> | undefined;
  /** A workspace's connection was handed back: admissions waiting for their node's share look again. */
  freed(): void;
  /** Hears an error that says the database or a node is away. */
  heard(error: unknown): void;
  /** A statement (for the workspace, if one) has run long: its node is suspected, and the nodes checked. */
  suspect(workspaceId?: string): void;
  /** Whether requests' statements need watching: false once the database is known to have no workers (plain PostgreSQL). */
  watching(): boolean;
  /** Checks every worker now (a check under `freshMs` old is reused). */
  check(freshMs?: number): Promise<NodeReachability[]>;
  /** The last known state, without checking. */
  known(): NodeReachability[];
  stop(): void;
}

export const NO_CLUSTER_NODES: ClusterNodes = {
  assertReachable: async () => undefined,
  locate: async () => undefined,
  refusal: () => undefined,
  admission: () => undefined,
  freed: () => undefined,
  heard: () => undefined,
  suspect: () => undefined,
  watching: () => false,
  check: async () => [],
  known: () => [],
  stop: () => undefined,
};

export interface ClusterNodeOptions {
  connectionString: string;
  /** How long a check waits for the coordinator, and the coordinator for each worker (at most a second). */
  connectTimeoutMs: number;
  /** The workspace of each connection held or claimed; and giving up those held for the workspaces named. */
  inFlight: { workspaces(): string[]; abandonWhere(which: (workspaceId: string) => boolean): number };
  /** The pool's connections one node's workspaces may hold at once (the rest stay for the other nodes'). */
  nodeShare: number;
  logger?: Logger;
  /** How often a node that is away is checked again. */
  recheckMs?: number;
  now?: () => number;
}

// Citus's words for a worker it could not reach (remote_commands.c): the user is optional.
const REMOTE_NODE_FAILED = /connection to the remote node (?:[^@\s]+@)?(\S+):(\d+) failed/;
const RECHECK_MS = 1_000;
// A worker on the same network answers a new connection in milliseconds; one that hangs never.
const CHECK_NODE_TIMEOUT_MS = 1_000;
const SUSPECT_CHECK_EVERY_MS = 500;
// The pool's connections a node suspected of hanging may hold until the check says whether it does:
// the rest serve every other node's workspaces meanwhile.
const SUSPECT_SHARE = 2;
/** How long a workspace's node, once found, is taken as known before it is looked up again (off the request's path). */
export const PLACEMENT_TTL_MS = 60_000;
const PLACEMENTS_KEPT = 10_000;

const IS_CITUS = `SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') AS citus`;
const WORKERS = `SELECT nodename AS host, nodeport AS port FROM pg_dist_node WHERE groupid > 0 AND isactive AND noderole = 'primary' ORDER BY nodeid`;
// The coordinator's own metadata: it never reaches a worker. Every workspace table is co-located
// with `workspaces`, so its shard's placement is the workspace's node.
const PLACEMENTS = `
  SELECT w.id AS "workspaceId", n.nodename || ':' || n.nodeport AS node
  FROM unnest($1::text[]) AS w(id)
  JOIN pg_dist_placement p ON p.shardid = get_shard_id_for_distribution_column('workspaces', w.id)
  JOIN pg_dist_node n ON n.groupid = p.groupid`;

export function clusterNodes(options: ClusterNodeOptions): ClusterNodes {
  const now = options.now ?? Date.now;
  const recheckMs = options.recheckMs ?? RECHECK_MS;
  const nodeTimeoutMs = Math.min(options.connectTimeoutMs, CHECK_NODE_TIMEOUT_MS);
  const nodes = new Map<string, { reachable: boolean; since: number }>();
  const placements = new Map<string, { node: string; at: number }>();
  const suspects = new Set<string>();
  const waiting = new Set<() => void>();
  const wake = () => {
    const woken = [...waiting];
    waiting.clear();
    for (const go of woken) go();
  };
  let checking: Promise<NodeReachability[]> | undefined;
  let checkedAt = 0;
  let recheck: NodeJS.Timeout | undefined;
  let stopped = false;
  let metadata: Promise<Client> | undefined;
  // Found on first use; plain PostgreSQL has no workers, and nothing here runs again there.
  let citus: boolean | undefined;

  const away = (): Set<string> => new Set([...nodes.entries()].filter(([, state]) => !state.reachable).map(([node]) => node));

  // pg's own limit too, on the client's side: a coordinator that hangs answers no statement timeout.
  const open = async (): Promise<Client> => {
    const client = new Client({ connectionString: options.connectionString, connectionTimeoutMillis: options.connectTimeoutMs, query_timeout: nodeTimeoutMs * 4 });
    client.on("error", () => undefined);
    await client.connect();
    return client;
  };

  // Look-ups under way, by workspace: a burst of requests for one workspace asks once.
  const lookingUp = new Map<string, Promise<void>>();

  function lookUp(workspaceIds: string[]): Promise<void> {
    if (citus === false) return Promise.resolve();
    const wanted = [...new Set(workspaceIds)].filter(due);
    const pending = wanted.flatMap((id) => lookingUp.get(id) ?? []);
    const fresh = wanted.filter((id) => !lookingUp.has(id));
    if (fresh.length > 0) {
      const found = readPlacements(fresh).finally(() => {
        for (const id of fresh) lookingUp.delete(id);
      });
      for (const id of fresh) lookingUp.set(id, found);
      pending.push(found);
    }
    return Promise.all(pending).then(() => undefined);
  }

  // One session for the coordinator's metadata, kept: its statements never reach a worker, and
  // it never waits behind the pool that a hung worker may be holding.
  async function readPlacements(wanted: string[]): Promise<void> {
    metadata ??= open();
    try {
      const client = await metadata;
      citus ??= (await client.query<{ citus: boolean }>(IS_CITUS)).rows[0]?.citus === true;
      if (!citus) return;
      const { rows } = await client.query<{ workspaceId: string; node: string }>(PLACEMENTS, [wanted]);
      if (placements.size + rows.length > PLACEMENTS_KEPT) placements.clear();
      for (const { workspaceId, node } of rows) placements.set(workspaceId, { node, at: now() });
    } catch (error) {
      const client = metadata;
      metadata = undefined;
      void client.then((c) => c.end()).catch(() => undefined);
      throw error;
    }
  }

  /** Whether the workspace's node is unknown, or known for longer than PLACEMENT_TTL_MS. */
  const due = (workspaceId: string): boolean => {
    const cached = placements.get(workspaceId);
    return cached === undefined || now() - cached.at >= PLACEMENT_TTL_MS;
  };

  // The node last found, however long ago, with a look-up started off the request's path once it
  // is due: a workspace rarely moves, and its node known is what holds its requests to their node's
  // share. A key stays cached for as long as it is used, so its request may come to no look-up of
  // its own; if a node known only until it aged let such a workspace's requests past admission,
  // a hung node could take every pooled connection before the check found it away.
  const placementOf = (workspaceId: string): string | undefined => {
    if (due(workspaceId) && citus === true) void lookUp([workspaceId]).catch(() => undefined);
    return placements.get(workspaceId)?.node;
  };

  async function giveUpStatementsOn(node: string): Promise<void> {
    await lookUp(options.inFlight.workspaces()).catch(() => undefined);
    const given = options.inFlight.abandonWhere((workspaceId) => placementOf(workspaceId) === node);
    if (given > 0) options.logger?.info({ node, statements: given }, "gave up the statements waiting on an unreachable database node");
  }

  function mark(node: string, reachable: boolean): void {
    const state = nodes.get(node);
    if (state?.reachable === reachable) return;
    const at = now();
    // Once per change, never once per request.
    if (!reachable) options.logger?.warn({ node }, "database node unreachable: its workspaces are answered 503 until it answers again");
    else if (state) options.logger?.info({ node, awayMs: at - state.since }, "database node reachable again");
    nodes.set(node, { reachable, since: at });
    if (!reachable) {
      void giveUpStatementsOn(node);
      scheduleRecheck();
    }
    wake();
  }

  function scheduleRecheck(): void {
    if (recheck || stopped) return;
    recheck = setTimeout(() => {
      recheck = undefined;
      void check(0).finally(() => {
        if (away().size > 0) scheduleRecheck();
      });
    }, recheckMs);
    recheck.unref();
  }

  // A session of its own, closed after: a pooled one may hold a connection to a worker that hangs,
  // and Citus would reuse it for the check.
  async function checkNow(): Promise<NodeReachability[]> {
    let client: Client | undefined;
    try {
      client = await open();
      citus ??= (await client.query<{ citus: boolean }>(IS_CITUS)).rows[0]?.citus === true;
      if (!citus) return [];
      await client.query(`SET statement_timeout = ${nodeTimeoutMs * 3}; SET citus.node_connection_timeout = ${nodeTimeoutMs}`);
      const workers = (await client.query<{ host: string; port: number }>(WORKERS)).rows;
      for (const { host, port } of workers) {
        const { rows } = await client.query<{ ok: boolean }>("SELECT citus_check_connection_to_node($1, $2) AS ok", [host, port]);
        mark(`${host}:${port}`, rows[0]?.ok === true);
      }
      for (const node of nodes.keys()) if (!workers.some(({ host, port }) => `${host}:${port}` === node)) nodes.delete(node);
    } catch (error) {
      // The coordinator itself is away, or the check timed out: what is known of the workers stays.
      options.logger?.debug({ err: error }, "could not check the database's nodes");
    } finally {
      suspects.clear();
      wake();
      void client?.end().catch(() => undefined);
    }
    checkedAt = now();
    return known();
  }

  function check(freshMs = 2_000): Promise<NodeReachability[]> {
    if (citus === false) return Promise.resolve([]);
    if (checking) return checking;
    if (now() - checkedAt < freshMs) return Promise.resolve(known());
    checking = checkNow().finally(() => {
      checking = undefined;
    });
    return checking;
  }

  function known(): NodeReachability[] {
    return [...nodes.entries()].map(([node, state]) => ({ node, reachable: state.reachable, since: new Date(state.since).toISOString() }));
  }

  function admission(workspaceId: string): Promise<void> | undefined {
    if (citus !== true) return undefined;
    const node = placementOf(workspaceId);
    if (node === undefined) return undefined;
    const share = suspects.has(node) ? Math.min(SUSPECT_SHARE, options.nodeShare) : options.nodeShare;
    const holding = options.inFlight.workspaces().filter((id) => placementOf(id) === node).length;
    if (holding < share) return undefined;
    return new Promise<void>((go) => waiting.add(go)).then(() => {
      const refused = refusal(workspaceId);
      if (refused) throw refused;
      return admission(workspaceId);
    });
  }

  function refusal(workspaceId: string): NodeUnreachableError | undefined {
    const down = away();
    if (down.size === 0) return undefined;
    const node = placementOf(workspaceId);
    return node !== undefined && down.has(node) ? new NodeUnreachableError(node) : undefined;
  }

  return {
    async assertReachable(workspaceId) {
      if (citus !== false && placements.get(workspaceId) === undefined) {
        // Known before a node fails, so that its statements can be told apart then; off the request's path.
        const found = lookUp([workspaceId]).catch(() => undefined);
        if (away().size === 0) return;
        await found;
      }
      const refused = refusal(workspaceId);
      if (refused) throw new DomainError("unavailable", refused.message, { cause: refused });
    },
    locate: lookUp,
    refusal,
    admission,
    freed: wake,
    heard(error) {
      const message = (error as { message?: unknown } | null)?.message;
      const named = typeof message === "string" ? REMOTE_NODE_FAILED.exec(message) : null;
      if (named) {
        mark(`${named[1]}:${named[2]}`, false);
        return;
      }
      // A statement that timed out names no node: one that hangs answers no check either.
      if (driverErrorSqlState(error) === "57014") void check(0);
    },
    suspect(workspaceId) {
      const node = workspaceId === undefined ? undefined : placementOf(workspaceId);
      if (node !== undefined && nodes.get(node)?.reachable !== false && !suspects.has(node)) {
        suspects.add(node);
        void check(0);
        return;
      }
      void check(SUSPECT_CHECK_EVERY_MS);
    },
    watching: () => citus !== false,
    check,
    known,
    stop() {
      stopped = true;
      if (recheck) clearTimeout(recheck);
      void metadata?.then((client) => client.end()).catch(() => undefined);
    },
  };
}
