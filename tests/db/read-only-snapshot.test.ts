import type { Database } from "../../src/db/database";
import { inReadOnlySnapshot } from "../../src/db/read-only-snapshot";
import { newId } from "../../src/lib/ids";
import { openTestDatabase } from "../support/test-app";

// The transaction a workspace export reads in: one moment of the database, and no writes.

const LIMITS = { maxWait: 10_000, timeout: 60_000 };

let database: Database;
let organizationId: string;
beforeAll(async () => {
  database = await openTestDatabase();
  organizationId = (await database.prisma.organization.create({ data: { id: newId("org"), name: "Snapshots" }, select: { id: true } })).id;
});
afterAll(() => database.close());

const setting = async (tx: Parameters<Parameters<typeof inReadOnlySnapshot>[1]>[0], name: "transaction_isolation" | "transaction_read_only") =>
  (await tx.$queryRawUnsafe<Array<Record<string, string>>>(`SHOW ${name}`))[0]![name];

describe("inReadOnlySnapshot", () => {
  it("reads in one REPEATABLE READ, READ ONLY transaction", async () => {
    const seen = await inReadOnlySnapshot(database.prisma, async (tx) => [await setting(tx, "transaction_isolation"), await setting(tx, "transaction_read_only")], LIMITS);
    expect(seen).toEqual(["repeatable read", "on"]);
  });

  it("refuses a write", async () => {
    const write = inReadOnlySnapshot(database.prisma, (tx) => tx.workspace.create({ data: { id: newId("ws"), organizationId, name: "never" }, select: { id: true } }), LIMITS);
    await expect(write).rejects.toThrow(/read-only transaction/);
  });

  it("does not see a workspace created by another connection after its first statement", async () => {
    // The embedded engine is one connection: another statement would wait for the snapshot to end.
    if (database.kind === "embedded") return;
    const id = newId("ws");
    const seen = await inReadOnlySnapshot(
      database.prisma,
      async (tx) => {
        const before = await tx.workspace.count();
        await database.prisma.workspace.create({ data: { id, organizationId, name: "meanwhile" }, select: { id: true } });
        return { before, after: await tx.workspace.count(), found: await tx.workspace.findUnique({ where: { id }, select: { id: true } }) };
      },
      LIMITS,
    );
    expect(seen.after).toBe(seen.before);
    expect(seen.found).toBeNull();
    expect(await database.prisma.workspace.findUnique({ where: { id }, select: { id: true } })).toEqual({ id });
  });
});
