import request from "supertest";
import { toClientError } from "../../src/http/client-error";
import { adminAuth, createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { distinctWords } from "../support/distinct-words";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let ws: WorkspaceWithKey;
beforeAll(async () => {
  t = await createTestApp();
  ws = await createWorkspaceWithKey(t.services);
});
afterAll(() => t.close());

/** The error the real database raises for `write`. */
async function databaseError(write: () => Promise<unknown>): Promise<unknown> {
  try {
    await write();
  } catch (error) {
    return error;
  }
  throw new Error("expected the database to refuse the write");
}

describe("the one mapping of database errors", () => {
  it("maps a unique violation to 409 conflict", async () => {
    const directive = (id: string) => ({ id, workspaceId: ws.workspaceId, name: "same", content: "c" });
    await t.database.prisma.directive.create({ data: directive("dir_a") });
    const error = await databaseError(() => t.database.prisma.directive.create({ data: directive("dir_b") }));
    expect(toClientError(error)).toMatchObject({
      status: 409,
      code: "conflict",
      message: "A concurrent request wrote the same directive key first; retry the request",
    });
  });

  it("maps a value refused through the driver itself (no Prisma) to 400, as through Prisma", async () => {
    const error = await databaseError(() => t.database.executor.query("SELECT $1::int AS n", ["not a number"]));
    expect(toClientError(error)).toMatchObject({ status: 400, code: "bad_request" });
  });

  it("maps a missing record to 404 not found", async () => {
    const error = await databaseError(() => t.database.prisma.directive.update({ where: { workspaceId_id: { workspaceId: "ws_missing", id: "dir_missing" } }, data: { content: "x" } }));
    expect(toClientError(error)).toMatchObject({ status: 404, code: "not_found" });
  });

  it("maps a value too large to index to 400 bad request", async () => {
    const error = await databaseError(() =>
      t.database.prisma.memory.create({ data: { id: "mem_huge", workspaceId: ws.workspaceId, type: "finding", statement: distinctWords(150_000) }, select: { id: true } }),
    );
    expect(toClientError(error)).toMatchObject({ status: 400, code: "bad_request" });
  });

  it("leaves any other error to the 500 path", () => {
    expect(toClientError(new Error("boom"))).toBeUndefined();
  });
});

describe("concurrent imports", () => {
  it("lets two imports upserting the same skill and data source both succeed", async () => {
    const document = (text: string) => ({
      dataSources: [{ name: "warehouse", connectorType: "postgres", status: "connected" }],
      skills: [{ name: "sql", description: text, source: "authored", files: [{ path: "SKILL.md", content: text }] }],
    });
    const imports = await Promise.all(
      ["first", "second"].map((text) =>
        request(t.app).post(`/admin/v1/workspaces/${ws.workspaceId}/import`).set(adminAuth(t.adminToken)).send(document(text)),
      ),
    );
    expect(imports.map((res) => res.status)).toEqual([200, 200]);
    expect(await t.database.prisma.skillFile.count({ where: { workspaceId: ws.workspaceId } })).toBe(1);
  });
});
