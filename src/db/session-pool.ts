import { AsyncResource } from "node:async_hooks";
import { Client, Pool, type PoolConfig } from "pg";
import { isDatabaseUnavailable } from "./database-errors";
import { currentWorkspace } from "./workspace-scope";

export interface SessionPolicy {
  /** What every new session runs before anything else (its statement and node-connection timeouts). */
  settings?: string;
  /** Hears every error that says the database, or a node of it, is away. */
  onUnavailable?: (error: unknown) => void;
  /** Why a statement for this workspace is refused before it is sent (its node is known to be away), or undefined. */
  refusal?: (workspaceId: string) => Error | undefined;
  /**
   * When a statement for this workspace must wait before it takes a connection: a promise that
   * settles when it may (or rejects with why it may not); undefined to go on at once.
   */
  admission?: (workspaceId: string) => Promise<void> | undefined;
  /** Told whenever a workspace's connection is handed back (a waiting admission may go on). */
  onFreed?: () => void;
  /** Told once a statement has run `slowMs`, with the workspace it works for: its node may hang. */
  onSlow?: (workspaceId: string | undefined) => void;
  slowMs?: number;
  /**
   * Whether statements are watched at all (default: always). When not, a statement costs no timer,
   * no look-up of its workspace and no claim: on plain PostgreSQL, where no node can be away alone.
   */
  watching?: () => boolean;
}

export interface SessionPool {
  pool: Pool;
  /** The workspace of each connection held, or claimed by an admitted request waiting for one, now (one entry per connection). */
  workspaces(): string[];
  /** Gives up the connections held for workspaces `which` names: they are closed, and their statements fail as unavailable at once. */
  abandonWhere(which: (workspaceId: string) => boolean): number;
}

type Release = (error?: Error | boolean) => void;
type Callback = (error: Error | null, result?: unknown) => void;
// pg declares connect's promise and callback forms as overloads, which an override can only meet loosely.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyCallback = (...args: any[]) => void;

// Well under a statement timeout (1.5 s by default), so that a node that hangs is found, and the
// statements waiting on it given up, before they time out one by one.
const DEFAULT_SLOW_MS = 300;

/**
 * A `pg` pool whose connections each run the policy's settings first, and which keeps one
 * workspace's node that hangs from holding the connections every workspace shares:
 * - a statement for a workspace whose node is known to be away is refused before it waits for a
 *   connection, and again before it is sent;
 * - a request waits before it takes a connection while its workspace's node holds its share of
 *   them (admission), so that the others' workspaces always find one;
 * - a statement still running after `slowMs` is reported, so that the nodes are checked;
 * - the connections held for a node found away are given up (abandonWhere);
 * - a connection that met a database away is never handed out again. A coordinator whose statement
 *   to a hung Citus worker timed out stays inside Citus's cancel of it until the worker answers
 *   (libpq's PQcancel blocks; connection_management.c says so): its next statement, a ROLLBACK
 *   included, would wait as long. So from that error on, the connection fails every statement at
 *   once and is closed when released, whoever releases it (pg's pool.query, Prisma's adapter).
 */
export function createSessionPool(config: PoolConfig, policy: SessionPolicy): SessionPool {
  // The connections held for a workspace's request, and the claims of those admitted and waiting for one.
  const held = new Set<SessionClient>();
  const claims = new Map<string, number>();
  const claim = (workspaceId: string) => claims.set(workspaceId, (claims.get(workspaceId) ?? 0) + 1);
  const dropClaim = (workspaceId: string) => {
    const left = (claims.get(workspaceId) ?? 1) - 1;
    if (left > 0) claims.set(workspaceId, left);
    else claims.delete(workspaceId);
    policy.onFreed?.();
  };
  const unclaim = (client: SessionClient) => {
    held.delete(client);
    const workspaceId = client.heldFor!;
    client.heldFor = undefined;
    dropClaim(workspaceId);
  };
  const slowMs = policy.slowMs ?? DEFAULT_SLOW_MS;
  const watching = policy.watching ?? (() => true);

  const refused = (workspaceId: string | undefined): Error | undefined => (workspaceId === undefined ? undefined : policy.refusal?.(workspaceId));

  class SessionClient extends Client {
    #givenUp: Error | undefined;
    #release: Release | undefined;
    /** The workspace of the request that holds this connection now, if one does. */
    heldFor: string | undefined;

    constructor(...args: ConstructorParameters<typeof Client>) {
      super(...args);
      // A connection closed under a borrower also emits `error`; the borrower hears it from its statement.
      this.on("error", () => undefined);
    }

    // Before the pool hands the connection out, so that no statement of a borrower runs without them.
    override connect(callback?: AnyCallback): never {
      const opened = (async () => {
        await super.connect();
        if (policy.settings) await super.query(policy.settings);
        return this;
      })();
      if (!callback) return opened as never;
      opened.then(
        (client) => callback(null, client),
        (error: Error) => callback(error),
      );
      return undefined as never;
    }

    // The pool assigns `release` on every checkout; this keeps its meaning and adds the error.
    set release(release: Release | undefined) {
      this.#release = release;
    }

    get release(): Release | undefined {
      const release = this.#release;
      if (!release) return undefined;
      return (error) => {
        if (this.heldFor !== undefined) unclaim(this);
        release(error ?? this.#givenUp);
      };
    }

    override query(...args: unknown[]): never {
      const callback = typeof args[args.length - 1] === "function" ? (args[args.length - 1] as Callback) : undefined;
      const watched = watching();
      const refusal = this.#givenUp
        ? Object.assign(new Error(`This connection was given up: ${this.#givenUp.message}`), { code: "08006", severity: "ERROR" })
        : watched
          ? refused(this.heldFor ?? currentWorkspace())
          : undefined;
      if (refusal) {
        if (!callback) return Promise.reject(refusal) as never;
        process.nextTick(() => callback(refusal));
        return undefined as never;
      }
      const onSlow = watched ? policy.onSlow : undefined;
      const workspaceId = onSlow ? (this.heldFor ?? currentWorkspace()) : undefined;
      const slow = onSlow ? setTimeout(() => onSlow(workspaceId), slowMs) : undefined;
      slow?.unref();
      const settled = (error: unknown) => {
        clearTimeout(slow);
        if (error) this.#heard(error);
      };
      if (callback) {
        args[args.length - 1] = (error: Error | null, result?: unknown) => {
          settled(error);
          callback(error, result);
        };
      }
      const answer = (super.query as (...a: unknown[]) => unknown)(...args);
      if (!callback && answer instanceof Promise) answer.then(() => settled(undefined), settled);
      return answer as never;
    }

    abandon(reason: Error): void {
      this.#givenUp ??= reason;
      // Closing the socket fails the statement at once ("Connection terminated"); the server side
      // ends when the coordinator is free to notice.
      (this as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    }

    #heard(error: unknown): void {
      if (!isDatabaseUnavailable(error)) return;
      this.#givenUp ??= error instanceof Error ? error : new Error(String(error));
      policy.onUnavailable?.(error);
    }
  }

  class SessionPoolImpl extends Pool {
    override connect(callback?: AnyCallback): never {
      const connect = (super.connect as (cb?: unknown) => never).bind(this) as (cb?: AnyCallback) => Promise<SessionClient>;
      // The pool hands a free connection to a waiter from whatever released it: bound, the
      // waiter's statements run on behalf of its own request's workspace.
      const workspaceId = watching() ? currentWorkspace() : undefined;
      if (workspaceId === undefined) return connect(callback) as never;
      const bound = callback && AsyncResource.bind(callback);
      const refusal = refused(workspaceId);
      const admission = refusal ? Promise.reject(refusal) : policy.admission?.(workspaceId);
      const take = async (): Promise<SessionClient> => {
        claim(workspaceId);
        let client: SessionClient;
        try {
          client = await connect();
        } catch (error) {
          dropClaim(workspaceId);
          throw error;
        }
        client.heldFor = workspaceId;
        held.add(client);
        return client;
      };
      const taken = admission ? admission.then(take) : take();
      if (!bound) return taken as never;
      taken.then(
        (client) => bound(null, client, client.release),
        (error: Error) => bound(error),
      );
      return undefined as never;
    }
  }

  const pool = new SessionPoolImpl({ ...config, Client: SessionClient });
  // The pool drops an idle connection the server closes (restart, failover, a terminated backend,
  // one closed while the pool ends) and opens another on next use, but it also emits the error:
  // unheard, that ends the process.
  pool.on("error", () => undefined);
  return {
    pool,
    workspaces: () => [...claims].flatMap(([workspaceId, count]) => Array<string>(count).fill(workspaceId)),
    abandonWhere(which) {
      let abandoned = 0;
      for (const client of [...held]) {
        if (client.heldFor === undefined || !which(client.heldFor)) continue;
        client.abandon(new Error("its workspace's database node is not answering"));
        abandoned++;
      }
      return abandoned;
    },
  };
}
