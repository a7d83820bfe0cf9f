import { Client } from "pg";
import { postgresDatabase, type Database } from "../../src/db/database";
import { EmbeddingIndexer } from "../../src/indexing/embedding-indexer";
import { announcePendingRows, listenForPendingRows, pendingRowsNotices, PENDING_ROWS_CHANNEL, type PendingRowsListener } from "../../src/indexing/pending-rows-notice";
import { createLogger } from "../../src/lib/logger";
import { createWorkspaceWithKey, importContent } from "../support/factories";
import { capturingLogger } from "../support/log-capture";
import { TEST_DATABASE_URL, createMigratedDatabase, databaseUrl } from "../support/postgres-server";
import { createTestApp, type TestApp } from "../support/test-app";
import { waitFor } from "../support/wait-for";

// Writers announce pending rows (NOTIFY) and the processes that index listen, so that an idle
// indexer looks seldom instead of every second; a listener that finds its own probe never arrives
// (a pooler in transaction mode) says so and leaves the indexer to look every second.

// Longer than any wait below: a row found before it was found by a notice.
const NEVER_MS = 600_000;

let created: { url: string; drop: () => Promise<void> };
let database: Database;
const listeners: PendingRowsListener[] = [];
beforeAll(async () => {
  created = await createMigratedDatabase(TEST_DATABASE_URL!);
  database = postgresDatabase(created.url, { poolSize: 4 });
});
afterEach(async () => {
  for (const listener of listeners.splice(0)) await listener.stop();
});
afterAll(async () => {
  await database?.close();
  await created?.drop();
});

function listen(options: { announce?: (payload: string) => Promise<void>; probeWaitMs?: number; own?: string } = {}) {
  const seen = { notices: 0, listening: [] as boolean[] };
  const { logger, lines } = capturingLogger();
  const listener = listenForPendingRows({
    connectionString: created.url,
    onNotice: () => (seen.notices += 1),
    onListening: (listening) => seen.listening.push(listening),
    own: options.own,
    announce: options.announce ?? ((payload) => announcePendingRows(database.prisma, payload)),
    logger,
    probeWaitMs: options.probeWaitMs,
  });
  listeners.push(listener);
  return { seen, lines };
}

const listenerBackends = async () =>
  (
    await database.prisma.$queryRaw<Array<{ pid: number }>>`
      SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query = ${`LISTEN ${PENDING_ROWS_CHANNEL}`}`
  ).map((row) => row.pid);

describe("notices of pending rows", () => {
  it("reach a listener from another connection once its own probe has come back", async () => {
    const { seen, lines } = listen();
    await waitFor(() => seen.listening.at(-1) === true, { what: "the listener to receive its probe" });
    expect(lines().some((line) => line.msg === "listening for new rows: writers' notices wake the indexer")).toBe(true);
    const before = seen.notices;
    const writer = new Client({ connectionString: created.url });
    await writer.connect();
    try {
      await writer.query(`SELECT pg_notify($1, '')`, [PENDING_ROWS_CHANNEL]);
    } finally {
      await writer.end();
    }
    await waitFor(() => seen.notices > before, { what: "the notice to arrive" });
  });

  it("passes over its own process's notices, whose writes woke its indexer already", async () => {
    const { seen } = listen({ own: "indexer-a" });
    await waitFor(() => seen.listening.at(-1) === true, { what: "the listener to receive its probe" });
    const before = seen.notices;
    // Notices of one session arrive in the order sent: once the other's has, its own was passed over.
    const writer = new Client({ connectionString: created.url });
    await writer.connect();
    try {
      await writer.query(`SELECT pg_notify($1, 'indexer-a')`, [PENDING_ROWS_CHANNEL]);
      await writer.query(`SELECT pg_notify($1, 'indexer-b')`, [PENDING_ROWS_CHANNEL]);
    } finally {
      await writer.end();
    }
    await waitFor(() => seen.notices > before, { what: "the other indexer's notice to arrive" });
    expect(seen.notices).toBe(before + 1);
  });

  it("says notices do not arrive when its probe never comes back, and reports no listening", async () => {
    // The probe is sent, but to another database's listeners, as a pooler in transaction mode
    // hands the LISTEN's session to another client: it never comes back.
    const elsewhere = new Client({ connectionString: databaseUrl(TEST_DATABASE_URL!, "postgres") });
    await elsewhere.connect();
    try {
      const { seen, lines } = listen({ announce: async (payload) => void (await elsewhere.query(`SELECT pg_notify($1, $2)`, [PENDING_ROWS_CHANNEL, payload])), probeWaitMs: 300 });
      const warning = await waitFor(() => lines().find((line) => String(line.msg).startsWith("notices of new rows do not arrive")), { what: "the warning" });
      expect(warning).toMatchObject({ level: 40, channel: PENDING_ROWS_CHANNEL, waitedMs: 300 });
      expect(seen.listening).not.toContain(true);
      // Its connection is closed rather than left listening for nothing.
      await waitFor(async () => (await listenerBackends()).length === 0, { what: "the listening connection to close" });
    } finally {
      await elsewhere.end();
    }
  });

  it("reconnects after its connection is ended by the server, and has the indexer look meanwhile", async () => {
    const { seen, lines } = listen();
    await waitFor(() => seen.listening.at(-1) === true, { what: "the listener to receive its probe" });
    const [pid] = await waitFor(async () => ((await listenerBackends()).length === 1 ? listenerBackends() : undefined), { what: "the listening backend" });
    const noticesBefore = seen.notices;
    await database.prisma.$queryRaw`SELECT pg_terminate_backend(${pid}::int)`;
    await waitFor(() => seen.listening.includes(false), { what: "the lost connection to be reported" });
    expect(seen.notices).toBeGreaterThan(noticesBefore);
    expect(lines().some((line) => String(line.msg).startsWith("lost the connection that listens for new rows"))).toBe(true);
    await waitFor(() => seen.listening.at(-1) === true, { what: "the listener to come back", ceilingMs: 60_000 });
    expect(await listenerBackends()).toHaveLength(1);
  });
});

describe("an indexer that listens", () => {
  let web: TestApp;
  let indexing: TestApp;
  afterEach(async () => {
    await indexing?.close();
    await web?.close();
  });

  it("embeds another process's writes at once, though it would look only every ten minutes", async () => {
    // Two views of one database, as a web process (INDEXER=worker) and a worker hold them.
    web = await createTestApp({ databaseUrl: created.url });
    indexing = await createTestApp({ databaseUrl: created.url });
    const indexer = new EmbeddingIndexer(indexing.database.prisma, indexing.services.embeddings, createLogger("silent"), {
      idlePollMs: NEVER_MS,
      listeningPollMs: NEVER_MS,
    });
    const notices = pendingRowsNotices(indexer, { connectionString: created.url, db: indexing.database.prisma, logger: createLogger("silent") });
    indexer.start();
    notices.start();
    try {
      await waitFor(() => indexer.waiting, { what: "the indexer's first look to end" });
      const ws = await createWorkspaceWithKey(web.services);
      await importContent(web.services, ws.workspaceId, {
        artifacts: [{ summary: "Refunds rose after the pricing change", why: "Pricing", confidence: 0.5, confidenceExplanation: "finance export" }],
        memories: [{ type: "rule", statement: "Report refunds net of tax" }],
      });
      const pending = async () => {
        const state = await indexing.services.indexer.state(ws.workspaceId);
        return Object.values(state.tables).reduce((sum, table) => sum + table.pending, 0);
      };
      expect(await pending()).toBeGreaterThan(0);
      // The web side's own indexer never ran: only the notice can have woken this one.
      await waitFor(async () => (await pending()) === 0, { what: "the listening indexer to embed the import", ceilingMs: 120_000, everyMs: 200 });
    } finally {
      await notices.stop();
      await indexer.stop();
    }
  });
});
