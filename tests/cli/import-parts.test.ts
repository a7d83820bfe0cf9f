import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import request from "supertest";
import { COMMANDS } from "../../src/cli/admin-commands";
import { addImportAnswer, importParts, PART_BUDGET_BYTES, type ImportTotals } from "../../src/cli/import-parts";
import { minimalArtifact } from "../support/artifacts";
import { adminAuth, createWorkspaceWithKey, importContent } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), "utf8");

/** An artifact whose JSON is about `size` bytes. */
const sizedArtifact = (n: number, size = 3_000) => ({ ...minimalArtifact({ summary: `Finding ${n}` }), content: "x".repeat(size), status: "validated" });

describe("importParts: a document over the body limit in parts of whole entries", () => {
  it("returns a document within the budget whole, so that it stays all or nothing", () => {
    const document = { context: "FY starts in April", artifacts: [sizedArtifact(1)] };
    expect(importParts(document)).toEqual([document]);
  });

  it("keeps every entry once and in order, each part within the budget, what is upserted by name before what is appended", () => {
    const document = {
      context: "FY starts in April",
      directives: Array.from({ length: 30 }, (_, n) => ({ type: "rule", content: `Rule ${n} ${"y".repeat(500)}` })),
      memories: Array.from({ length: 40 }, (_, n) => ({ type: "finding", statement: `Memory ${n} ${"z".repeat(800)}` })),
      artifacts: Array.from({ length: 60 }, (_, n) => sizedArtifact(n)),
    };
    const parts = importParts(document, 20_000);
    expect(parts.length).toBeGreaterThan(5);
    for (const part of parts) expect(bytes(part)).toBeLessThanOrEqual(20_000);
    const joined = (section: string) => parts.flatMap((part) => (part[section] as unknown[] | undefined) ?? []);
    expect(joined("directives")).toEqual(document.directives);
    expect(joined("memories")).toEqual(document.memories);
    expect(joined("artifacts")).toEqual(document.artifacts);
    expect(parts[0]!.context).toBe("FY starts in April");
    const order = parts.flatMap((part) => Object.keys(part));
    expect(order.lastIndexOf("directives")).toBeLessThan(order.indexOf("memories"));
    expect(order.lastIndexOf("memories")).toBeLessThan(order.indexOf("artifacts"));
  });

  it("sums the parts' answers: counts added, artifact ids in order", () => {
    const totals: ImportTotals = { imported: {}, artifactIds: [] };
    addImportAnswer(totals, { imported: { artifacts: 2, memories: 1 }, artifactIds: ["art_a", "art_b"] });
    addImportAnswer(totals, { imported: { artifacts: 1 }, artifactIds: ["art_c"] });
    expect(totals).toEqual({ imported: { artifacts: 3, memories: 1 }, artifactIds: ["art_a", "art_b", "art_c"] });
  });
});

describe("npm run admin -- import: an export larger than the body limit goes back in", () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    t = await createTestApp();
    dir = mkdtempSync(path.join(os.tmpdir(), "wsi-import-parts-"));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t.close();
  });

  it("sends the parts in turn, and the copy holds every artifact and memory of the export", async () => {
    const source = await createWorkspaceWithKey(t.services);
    await importContent(t.services, source.workspaceId, {
      context: "Fiscal year starts in April.",
      memories: Array.from({ length: 50 }, (_, n) => ({ type: "finding" as const, statement: `Churn finding number ${n}` })),
      artifacts: Array.from({ length: 450 }, (_, n) => sizedArtifact(n)) as never,
    });
    const exported = await request(t.app).get(`/admin/v1/workspaces/${source.workspaceId}/export`).set(adminAuth(t.adminToken)).buffer(true).expect(200);
    expect(Buffer.byteLength(exported.text)).toBeGreaterThan(PART_BUDGET_BYTES * 1.2);
    const file = path.join(dir, "export.json");
    writeFileSync(file, exported.text);
    // The body limit refuses the document whole.
    const copy = await createWorkspaceWithKey(t.services);
    await request(t.app).post(`/admin/v1/workspaces/${copy.workspaceId}/import`).set(adminAuth(t.adminToken)).send(JSON.parse(exported.text)).expect(413);

    const built = COMMANDS.import!({ workspace: copy.workspaceId, file });
    expect(built.parts!.length).toBeGreaterThan(1);
    const totals: ImportTotals = { imported: {}, artifactIds: [] };
    for (const part of built.parts!) {
      const res = await request(t.app).post(built.path).set(adminAuth(t.adminToken)).send(part as object).expect(200);
      addImportAnswer(totals, res.body);
    }
    expect(totals.imported.artifacts).toBe(450);
    expect(totals.artifactIds).toHaveLength(450);
    const again = await request(t.app).get(`/admin/v1/workspaces/${copy.workspaceId}/export`).set(adminAuth(t.adminToken)).buffer(true).expect(200);
    const [before, after] = [JSON.parse(exported.text), JSON.parse(again.text)];
    const summaries = (document: { artifacts: Array<{ summary: string }> }) => document.artifacts.map((a) => a.summary).sort();
    expect(summaries(after)).toEqual(summaries(before));
    expect(after.memories.map((m: { statement: string }) => m.statement).sort()).toEqual(before.memories.map((m: { statement: string }) => m.statement).sort());
    expect(after.context).toBe(before.context);
  });
});
