import request from "supertest";
import { embeddedDatabase } from "../../src/db/database";
import { openMemoryDatabase } from "../../src/db/embedded-database";
import { applyMigrations, loadMigrations } from "../../src/db/migrations";
import { createTestApp, type TestApp } from "../support/test-app";

describe("GET /livez", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("answers 200 without a key or a database statement", async () => {
    const ping = jest.spyOn(t.services.database, "ping");
    const query = jest.spyOn(t.services.database.executor, "query");
    const res = await request(t.app).get("/livez");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok" });
    expect(ping).not.toHaveBeenCalled();
    expect(query).not.toHaveBeenCalled();
  });

  it("answers a malformed query string with the documented 400", async () => {
    const res = await request(t.app).get("/livez?%zz");
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("bad_request");
  });

  it("is not rate limited", async () => {
    for (let i = 0; i < 3; i++) {
      const res = await request(t.app).get("/livez");
      expect(res.status).toBe(200);
      expect(res.headers.ratelimit).toBeUndefined();
    }
  });
});

describe("GET /readyz", () => {
  it("answers 200 on a database with every migration", async () => {
    const t = await createTestApp();
    try {
      const res = await request(t.app).get("/readyz");
      expect(res.status).toBe(200);
      expect(res.body.status).toBe("ok");
      // A Citus cluster's workers are listed, each reachable; elsewhere there are none.
      if (process.env.WSI_TEST_CITUS) {
        expect(res.body.nodes.length).toBeGreaterThan(0);
        expect(res.body.nodes.every((node: { reachable: boolean }) => node.reachable)).toBe(true);
      } else {
        expect(res.body).toEqual({ status: "ok" });
      }
      expect(res.headers.ratelimit).toBeUndefined();
    } finally {
      await t.close();
    }
  });

  it("answers 503 once the database is closed, while /livez still answers 200", async () => {
    const t = await createTestApp();
    try {
      await t.database.close();
      const res = await request(t.app).get("/readyz");
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ error: "The database is not answering", code: "service_unavailable" });
      expect((await request(t.app).get("/livez")).status).toBe(200);
      expect((await request(t.app).get("/healthz")).status).toBe(503);
    } finally {
      // The embeddings threads; the database is closed already.
      await t.close().catch(() => undefined);
    }
  });

  it("answers 503 naming the migration a database lacks", async () => {
    // A database migrated by an older release: every migration but the newest.
    const migrations = loadMigrations();
    const missing = migrations.at(-1)!.name;
    const embedded = await openMemoryDatabase();
    await applyMigrations(embedded.executor, migrations.slice(0, -1));
    const t = await createTestApp({ database: embeddedDatabase(embedded) });
    try {
      const res = await request(t.app).get("/readyz");
      expect(res.status).toBe(503);
      expect(res.body.code).toBe("service_unavailable");
      expect(res.body.error).toContain(`The database lacks migration ${missing}: run \`npm run migrate\``);
      // /healthz only asks whether the database answers, as before.
      expect((await request(t.app).get("/healthz")).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});
