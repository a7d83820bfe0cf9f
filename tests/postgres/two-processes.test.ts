import request from "supertest";
import type { EmbeddingsProvider } from "../../src/embeddings/embeddings-provider";
import { LocalEmbeddings } from "../../src/embeddings/local-embeddings";
import { minimalArtifact } from "../support/artifacts";
import { adminAuth, createWorkspaceWithKey } from "../support/factories";
import { TEST_DATABASE_URL, createMigratedDatabase, onServer } from "../support/postgres-server";
import { createTestApp, type TestApp } from "../support/test-app";
import { waitFor } from "../support/wait-for";

/**
 * Two app instances on one PostgreSQL database, each with its own services and its own pool: what
 * two web processes (or a web and a worker process) of one deployment are.
 */
// A revoked key stops working everywhere within this bound (docs/deployment.md): API-key lookups
// may be cached in each process for up to 5 s; one more second covers the request itself.
const REVOCATION_BOUND_MS = 6_000;

/** The real local model, counting the texts each instance embeds. */
class CountingEmbeddings implements EmbeddingsProvider {
  private readonly inner = new LocalEmbeddings();
  readonly model = this.inner.model;
  readonly maxInputChars = this.inner.maxInputChars;
  readonly indexLanes = this.inner.indexLanes;
  texts = 0;
  embed(texts: string[]): Promise<number[][]> {
    this.texts += texts.length;
    return this.inner.embed(texts);
  }
  embedQuery(text: string): Promise<number[]> {
    return this.inner.embedQuery(text);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

let database: { url: string; drop: () => Promise<void> };
let first: TestApp;
let second: TestApp;
const embeddings = { first: new CountingEmbeddings(), second: new CountingEmbeddings() };

beforeAll(async () => {
  database = await createMigratedDatabase(TEST_DATABASE_URL!);
  first = await createTestApp({ databaseUrl: database.url, embeddings: embeddings.first });
  second = await createTestApp({ databaseUrl: database.url, embeddings: embeddings.second });
});
afterAll(async () => {
  await first?.close();
  await second?.close();
  await database?.drop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("two processes on one database", () => {
  it("answers 401 through one process for a key revoked through the other, within the documented bound", async () => {
    const ws = await createWorkspaceWithKey(first.services);
    await request(second.app).get("/api/v1/briefing").set(ws.auth).expect(200);
    await request(first.app).delete(`/admin/v1/keys/${ws.keyId}`).set(adminAuth(first.adminToken)).expect(204);
    const revokedAt = Date.now();
    // The bound promises that a request sent once it has passed is refused; one sent before may
    // still be served. Ask until the refusal or a request sent past the bound, however slow the
    // machine makes each answer.
    for (;;) {
      const sentAt = Date.now();
      const { status } = await request(second.app).get("/api/v1/briefing").set(ws.auth);
      if (status === 401) break;
      expect(status).toBe(200);
      expect(sentAt - revokedAt).toBeLessThanOrEqual(REVOCATION_BOUND_MS);
      await sleep(250);
    }
  });

  it("creates one artifact for concurrent pushes with one Idempotency-Key through both processes", async () => {
    const ws = await createWorkspaceWithKey(first.services);
    const push = (t: TestApp) =>
      request(t.app).post("/api/v1/artifacts").set(ws.auth).set("Idempotency-Key", "both-processes").send(minimalArtifact());
    const responses = await Promise.all(Array.from({ length: 6 }, (_, i) => push(i % 2 === 0 ? first : second)));
    expect(responses.map((r) => r.status)).toEqual(Array(6).fill(201));
    expect(new Set(responses.map((r) => r.body.artifactId)).size).toBe(1);
    const count = await onServer(database.url, async (client) =>
      (await client.query(`SELECT count(*)::int AS n FROM artifacts WHERE workspace_id = $1`, [ws.workspaceId])).rows[0].n,
    );
    expect(count).toBe(1);
  });

  it("keeps serving after the server closes every connection of its pools", async () => {
    const ws = await createWorkspaceWithKey(first.services);
    await request(first.app).get("/api/v1/briefing").set(ws.auth).expect(200);
    await onServer(TEST_DATABASE_URL!, (client) =>
      client.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [
        new URL(database.url).pathname.slice(1),
      ]),
    );
    // Once the server has closed them, the pools hear of the closed connections; an unheard pool
    // error would end the process. The service's connections only: a connection made since (a
    // wake's notice of the pushes before) starts Citus's maintenance daemon for the database again,
    // a background worker that stays, whose own connections to the coordinator (named
    // `citus_internal gpid=…`) are client backends that it keeps.
    await waitFor(
      async () =>
        (await onServer(TEST_DATABASE_URL!, (client) =>
          client.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend'
                          AND application_name NOT LIKE 'citus_internal%'`, [
            new URL(database.url).pathname.slice(1),
          ]),
        )).rows[0].n === 0,
      { what: "the server to close the terminated connections" },
    );
    await request(first.app).get("/api/v1/briefing").set(ws.auth).expect(200);
    await request(second.app).get("/api/v1/briefing").set(ws.auth).expect(200);
  });

  // Without leased claims both processes select the same pending rows and embed them again
  // (measured before claims: 126 texts embedded for 42 pending rows).
  it("embeds each pending row once when both processes run the indexer", async () => {
    const ws = await createWorkspaceWithKey(first.services);
    for (let i = 0; i < 20; i++) {
      const pushed = await request(first.app).post("/api/v1/artifacts").set(ws.auth).send(minimalArtifact({ summary: `Finding number ${i}` })).expect(201);
      await request(first.app).post(`/admin/v1/artifacts/${pushed.body.artifactId}/validate`).set(adminAuth(first.adminToken)).send({ by: "ana" }).expect(200);
    }
    const pendingRows = async () =>
      onServer(database.url, async (client) =>
        // Each validation leaves two artifact vectors and the artifact's memory-bank entry pending.
        (await client.query(`SELECT ((SELECT count(*) FROM artifact_embeddings WHERE embedding IS NULL)
                                   + (SELECT count(*) FROM memories WHERE embedding IS NULL))::int AS n`)).rows[0].n as number,
      );
    const rows = await pendingRows();
    expect(rows).toBeGreaterThanOrEqual(60);
    embeddings.first.texts = 0;
    embeddings.second.texts = 0;
    first.services.indexer.start();
    second.services.indexer.start();
    try {
      await waitFor(async () => (await pendingRows()) === 0, { what: "every pending row to be embedded", everyMs: 100 });
    } finally {
      await first.services.indexer.stop();
      await second.services.indexer.stop();
    }
    expect(await pendingRows()).toBe(0);
    expect(embeddings.first.texts + embeddings.second.texts).toBe(rows);
  });
});
