import { randomUUID } from "node:crypto";
import { Client } from "pg";
import type { DbTx } from "../db/database";
import type { Logger } from "../lib/logger";

// On PostgreSQL, the processes that index (the `worker` type, web processes with
// INDEXER=in-process) learn of new pending rows from a notice (LISTEN/NOTIFY) instead of looking
// every second: a look for the oldest pending row finds nothing through its indexes at no cost on
// one server, but on Citus it is a statement on every shard (0.10 CPU-s/s of the cluster at one
// look a second; docs/performance.md, "Idle worker"). They still look now and then, for what no
// notice announces: leases of a crashed indexer running out, rows written while no one listened.
//
// Notices are the server's: on Citus, a coordinator's. A connection through a pooler in
// transaction mode never receives them, which the listener finds out with a probe of its own
// (sent as writers send theirs) and then leaves the indexer to look every second.

export const PENDING_ROWS_CHANNEL = "wsi_pending_rows";

/** How long the listener waits for its own probe before it says notices do not arrive. */
export const PROBE_WAIT_MS = 5_000;
const RECONNECT_MS = { first: 1_000, most: 30_000 };

/**
 * Tells every process listening that rows are pending (after the transaction that wrote them);
 * `payload` names the sender (an indexer's id, or a listener's probe).
 */
export async function announcePendingRows(db: DbTx, payload: string): Promise<void> {
  // pg_notify returns void, a type a raw query cannot read back: executed, not queried.
  await db.$executeRaw`SELECT pg_notify(${PENDING_ROWS_CHANNEL}, ${payload})`;
}

export interface PendingRowsListenerOptions {
  connectionString: string;
  /** A notice arrived (or the listener reconnected, and may have missed some): look for pending rows now. */
  onNotice: () => void;
  /** The payload of this process's own notices, whose writes already woke its indexer: ignored. */
  own?: string;
  /** Whether notices arrive now: the indexer looks seldom while they do, every second while they do not. */
  onListening: (listening: boolean) => void;
  /** Sends a notice as writers do (announcePendingRows through the process's pool): the probe's path. */
  announce: (payload: string) => Promise<void>;
  logger: Logger;
  probeWaitMs?: number;
}

export interface PendingRowsListener {
  stop(): Promise<void>;
}

/**
 * Holds one connection of its own that LISTENs, reconnecting after it drops. Once connected it
 * sends a probe through `announce`; only when the probe arrives does it report `listening`.
 */
export function listenForPendingRows({
  connectionString,
  onNotice,
  onListening,
  own,
  announce,
  logger,
  probeWaitMs = PROBE_WAIT_MS,
}: PendingRowsListenerOptions): PendingRowsListener {
  let client: Client | undefined;
  let stopped = false;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let reconnectMs = RECONNECT_MS.first;
  let listening = false;
  let probe: { payload: string; arrived: () => void } | undefined;

  const setListening = (value: boolean) => {
    if (value === listening) return;
    listening = value;
    onListening(value);
  };

  const scheduleReconnect = () => {
    if (stopped || reconnectTimer) return;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      void connect();
    }, reconnectMs);
    reconnectTimer.unref();
    reconnectMs = Math.min(RECONNECT_MS.most, reconnectMs * 2);
  };

  const lost = (error: unknown) => {
    if (stopped) return;
    const wasListening = listening;
    setListening(false);
    void client?.end().catch(() => undefined);
    client = undefined;
    if (wasListening) logger.warn({ err: error }, "lost the connection that listens for new rows; looking for them every second until it is back");
    // Rows written meanwhile were announced to no one.
    onNotice();
    scheduleReconnect();
  };

  async function connect(): Promise<void> {
    if (stopped) return;
    const next = new Client({ connectionString });
    // A dropped connection emits the error once; unheard, it would end the process. A connection
    // already let go (a probe that never came back) is no longer this listener's to report.
    next.on("error", (error) => {
      if (client === next) lost(error);
    });
    next.on("end", () => {
      if (client === next) lost(new Error("connection ended"));
    });
    next.on("notification", (message) => {
      if (message.channel !== PENDING_ROWS_CHANNEL) return;
      if (probe && message.payload === probe.payload) probe.arrived();
      else if (own === undefined || message.payload !== own) onNotice();
    });
    try {
      await next.connect();
      client = next;
      await next.query(`LISTEN ${PENDING_ROWS_CHANNEL}`);
    } catch (error) {
      if (client === next) client = undefined;
      void next.end().catch(() => undefined);
      logger.warn({ err: error, retryInMs: reconnectMs }, "could not listen for new rows; looking for them every second meanwhile");
      scheduleReconnect();
      return;
    }
    const arrived = await probeArrives();
    if (client !== next) return;
    if (stopped) {
      // stop() ran while this connection was being made: it is this function's to close.
      client = undefined;
      await next.end().catch(() => undefined);
      return;
    }
    if (arrived) {
      reconnectMs = RECONNECT_MS.first;
      setListening(true);
      logger.info({ channel: PENDING_ROWS_CHANNEL }, "listening for new rows: writers' notices wake the indexer");
      // Rows may have been written before the LISTEN began.
      onNotice();
      return;
    }
    // A transaction-mode pooler hands the LISTEN's session to others: no notice would ever arrive.
    logger.warn(
      { channel: PENDING_ROWS_CHANNEL, waitedMs: probeWaitMs },
      "notices of new rows do not arrive on this connection (a pooler in transaction mode?); looking for new rows every second instead",
    );
    client = undefined;
    await next.end().catch(() => undefined);
  }

  async function probeArrives(): Promise<boolean> {
    const payload = `probe ${randomUUID()}`;
    let timer: NodeJS.Timeout | undefined;
    const arrived = new Promise<boolean>((resolve) => {
      probe = { payload, arrived: () => resolve(true) };
      timer = setTimeout(() => resolve(false), probeWaitMs);
      timer.unref();
    });
    try {
      await announce(payload);
      return await arrived;
    } catch (error) {
      logger.warn({ err: error }, "could not send the probe notice");
      return false;
    } finally {
      clearTimeout(timer);
      probe = undefined;
    }
  }

  void connect();
  return {
    async stop() {
      stopped = true;
      clearTimeout(reconnectTimer);
      const current = client;
      client = undefined;
      await current?.end().catch(() => undefined);
    },
  };
}

/** The background job that keeps an indexer told of writers' notices (PostgreSQL only). */
export function pendingRowsNotices(
  indexer: { readonly id: string; lookNow(): void; noticesArrive(listening: boolean): void },
  { connectionString, db, logger }: { connectionString: string; db: DbTx; logger: Logger },
): { start(): void; stop(): Promise<void> } {
  let listener: PendingRowsListener | undefined;
  return {
    start() {
      listener ??= listenForPendingRows({
        connectionString,
        onNotice: () => indexer.lookNow(),
        own: indexer.id,
        onListening: (listening) => indexer.noticesArrive(listening),
        announce: (payload) => announcePendingRows(db, payload),
        logger,
      });
    },
    async stop() {
      await listener?.stop();
      listener = undefined;
    },
  };
}
