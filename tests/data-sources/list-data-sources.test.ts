import request from "supertest";
import { createWorkspaceWithKey, importContent } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const warehouse = {
  name: "warehouse",
  connectorType: "postgres" as const,
  status: "connected" as const,
  createdAt: "2025-01-02T03:04:05.678Z",
  schema: [{ tableName: "accounts", columns: [{ columnName: "account_id", dataType: "uuid" }] }],
  tableAnnotations: [{ tableName: "accounts", description: "One row per account.", useCases: ["churn"], gotchas: ["is_internal marks test accounts"] }],
};

describe("GET /api/v1/data-sources", () => {
  it("answers DataSourceItem exactly, by name", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    await importContent(t.services, ws.workspaceId, {
      dataSources: [warehouse, { name: "events", connectorType: "clickhouse", status: "error" }],
    });
    const res = await request(t.app).get("/api/v1/data-sources").set(ws.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      items: [
        { name: "events", connectorType: "clickhouse", status: "error", createdAt: expect.any(Number) },
        {
          name: "warehouse",
          connectorType: "postgres",
          status: "connected",
          schema: warehouse.schema,
          tableAnnotations: warehouse.tableAnnotations,
          createdAt: Date.parse("2025-01-02T03:04:05.678Z"),
        },
      ],
    });
  });

  it("answers an empty list for a workspace without data sources", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    expect((await request(t.app).get("/api/v1/data-sources").set(ws.auth)).body).toEqual({ items: [] });
  });

  it("never serialises the connection reference, host, user or password", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    await importContent(t.services, ws.workspaceId, { dataSources: [warehouse] });
    await t.database.prisma.dataSource.updateMany({
      where: { workspaceId: ws.workspaceId },
      data: { connectionRef: "postgres://admin:secret@db.internal:5432/prod" },
    });
    const res = await request(t.app).get("/api/v1/data-sources").set(ws.auth);
    expect(res.status).toBe(200);
    for (const leak of ["connectionRef", "connection_ref", "postgres://", "admin", "secret", "db.internal", "5432", "/prod"]) {
      expect(res.text).not.toContain(leak);
    }
  });

  it("shows a key only its own workspace's data sources", async () => {
    const a = await createWorkspaceWithKey(t.services);
    const b = await createWorkspaceWithKey(t.services);
    await importContent(t.services, a.workspaceId, { dataSources: [warehouse] });
    await importContent(t.services, b.workspaceId, { dataSources: [{ name: "only-in-b", connectorType: "mysql", status: "disconnected" }] });
    const res = await request(t.app).get("/api/v1/data-sources").set(a.auth);
    expect(res.body.items.map((item: { name: string }) => item.name)).toEqual(["warehouse"]);
  });
});
