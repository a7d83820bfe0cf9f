import { readFileSync } from "node:fs";
import path from "node:path";
import request from "supertest";
import { buildApp } from "../src/app";
import { DEMO_DOCUMENT } from "../src/bootstrap/demo-workspace";
import { ImportDocumentSchema } from "../src/contracts/import";
import { LocalEmbeddings } from "../src/embeddings/local-embeddings";
import { systemClock } from "../src/lib/clock";
import { createLogger } from "../src/lib/logger";
import { createServices } from "../src/services";
import { openDatabase } from "./pipeline-bench";

// Figures for docs/operations.md ("Export and deletion"): the demo workspace's export (time,
// bytes), then a workspace of EXPORT_BENCH_ARTIFACTS artifacts (default 3,000, each with a body
// of about 2 KB, so 4 to 6 vector rows) exported and deleted beside a second workspace of the same
// size. Vectors are left pending: the rows are what a deletion removes, embedded or not.
// Embedded database by default; BENCH_DATABASE_URL runs it on that PostgreSQL server (its public
// schema is dropped!). Never part of `npm test`.

const ARTIFACTS = Number(process.env.EXPORT_BENCH_ARTIFACTS ?? 3_000);
const TOKEN = "bench-admin-token-0123456789abcdef";

const artifact = (n: number) => ({
  summary: `Finding ${n}: churn in region ${n % 17} moved by ${n % 40}%`,
  why: `Region ${n % 17} carries ${n % 9} of the top accounts`,
  confidence: 0.7,
  confidenceExplanation: "Twelve months of data",
  keyFindings: [`metric ${n % 8} changed`, `largest in region ${n % 17}`],
  content: `## Finding ${n}\n${`Accounts in cohort ${n % 31} renewed later than planned, quarter after quarter. `.repeat(28)}`,
  status: n % 10 === 0 ? ("draft" as const) : ("validated" as const),
});

async function main(): Promise<void> {
  const url = process.env.BENCH_DATABASE_URL;
  const database = await openDatabase(url);
  const logger = createLogger("silent");
  const embeddings = new LocalEmbeddings();
  const services = createServices({ database, clock: systemClock, logger, embeddings });
  const app = buildApp({ services, logger, adminToken: TOKEN });
  const admin = { Authorization: `Bearer ${TOKEN}` };
  const rows: string[] = [`| ${url ? "PostgreSQL" : "embedded (PGlite)"} | time | size |`, "|---|---|---|"];
  try {
    const demo = ImportDocumentSchema.parse(JSON.parse(readFileSync(path.join(__dirname, "..", DEMO_DOCUMENT), "utf8")));
    const demoWs = await services.workspaces.create({ name: "Demo" });
    await services.imports.importDocument(demoWs.id, demo);
    for (let i = 0; i < 3; i++) await request(app).get(`/admin/v1/workspaces/${demoWs.id}/export`).set(admin).buffer(true);
    let started = performance.now();
    const demoExport = await request(app).get(`/admin/v1/workspaces/${demoWs.id}/export`).set(admin).buffer(true);
    rows.push(`| export of the demo workspace | ${(performance.now() - started).toFixed(0)} ms | ${(demoExport.text.length / 1024).toFixed(0)} KB |`);

    const big = [await services.workspaces.create({ name: "Big" }), await services.workspaces.create({ name: "Neighbour" })];
    for (const ws of big) {
      for (let from = 0; from < ARTIFACTS; from += 500) {
        const count = Math.min(500, ARTIFACTS - from);
        await services.imports.importDocument(ws.id, ImportDocumentSchema.parse({ artifacts: Array.from({ length: count }, (_, i) => artifact(from + i)) }));
      }
    }
    started = performance.now();
    const bigExport = await request(app).get(`/admin/v1/workspaces/${big[0]!.id}/export`).set(admin).buffer(true);
    rows.push(`| export of ${ARTIFACTS.toLocaleString("en")} artifacts | ${(performance.now() - started).toFixed(0)} ms | ${(bigExport.text.length / 1024 / 1024).toFixed(1)} MB |`);
    // What the export's snapshot costs the other workspaces: a read of the neighbour sent just after
    // the export starts waits, on the embedded engine's one connection, until the snapshot is read.
    const neighbourKey = await services.apiKeys.create(big[1]!.id, { name: "bench" });
    const exporting = request(app).get(`/admin/v1/workspaces/${big[0]!.id}/export`).set(admin).buffer(true).then(() => performance.now());
    await new Promise((resolve) => setTimeout(resolve, 50));
    started = performance.now();
    await request(app).get("/api/v1/data-sources").set({ Authorization: `Bearer ${neighbourKey.key}` }).expect(200);
    const answered = performance.now();
    const exported = await exporting;
    rows.push(`| a neighbour's data-source list sent 50 ms into that export | ${(answered - started).toFixed(0)} ms (the export ended ${(exported - answered).toFixed(0)} ms later) | |`);
    const [{ vectors }] = await database.prisma.$queryRaw<[{ vectors: number }]>`SELECT count(*)::int AS vectors FROM artifact_embeddings WHERE workspace_id = ${big[0]!.id}`;
    started = performance.now();
    const deleted = await request(app).delete(`/admin/v1/workspaces/${big[0]!.id}`).set(admin);
    if (deleted.status !== 200) throw new Error(`delete answered ${deleted.status}: ${deleted.text}`);
    rows.push(`| delete a workspace of ${ARTIFACTS.toLocaleString("en")} artifacts (${vectors.toLocaleString("en")} vector rows, ${ARTIFACTS.toLocaleString("en")} memories) | ${(performance.now() - started).toFixed(0)} ms | |`);
    started = performance.now();
    const [one] = await database.prisma.$queryRaw<[{ id: string }]>`SELECT id FROM artifacts WHERE workspace_id = ${big[1]!.id} AND status = 'validated' LIMIT 1`;
    await request(app).delete(`/admin/v1/workspaces/${big[1]!.id}/artifacts/${one.id}`).set(admin).expect(204);
    rows.push(`| delete one validated artifact | ${(performance.now() - started).toFixed(0)} ms | |`);
    console.log(rows.join("\n"));
  } finally {
    await embeddings.close();
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
