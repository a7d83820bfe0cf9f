import { Session } from "node:inspector/promises";
import type { AddressInfo } from "node:net";
import { buildApp } from "../src/app";
import { LocalEmbeddings } from "../src/embeddings/local-embeddings";
import { systemClock } from "../src/lib/clock";
import { createLogger } from "../src/lib/logger";
import { createServices } from "../src/services";
import { BENCH_RATE_LIMITS } from "./bench-rate-limits";
import { load } from "./load";
import { benchArtifact, openDatabase } from "./pipeline-bench";

// `npx tsx bench/request-profile.ts [fetch|search]`: where the main thread's time goes while one
// endpoint is under load at 32 connections. A CPU profile (V8's sampling profiler) of the load, its
// self time summed by package (or by file inside src/), top first. BENCH_DATABASE_URL profiles
// against that PostgreSQL server (its public schema is dropped!).

const ARTIFACTS = 1000;
const LOAD_MS = 4000;

type ProfileNode = { id: number; callFrame: { functionName: string; url: string }; hitCount?: number };

/** "pglite", "@prisma/client", "express", … or the file under src/ or node: internals. */
function owner(url: string): string {
  if (!url) return "(native / idle / GC)";
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inModules) return inModules[1]!;
  const inSrc = /\/(src\/.+)$/.exec(url);
  if (inSrc) return inSrc[1]!;
  return url.startsWith("node:") ? "node: internals" : url;
}

async function main(): Promise<void> {
  const endpoint = process.argv[2] === "search" ? "search" : "fetch";
  const logger = createLogger("silent");
  const url = process.env.BENCH_DATABASE_URL;
  const database = await openDatabase(url);
  const embeddings = new LocalEmbeddings();
  const services = createServices({ database, clock: systemClock, logger, embeddings });
  const workspace = await services.workspaces.create({ name: "profile" });
  const key = await services.apiKeys.create(workspace.id, { name: "profile" });
  const { artifactIds } = await services.imports.importDocument(workspace.id, {
    artifacts: Array.from({ length: ARTIFACTS }, (_, n) => ({ ...benchArtifact(n), status: "validated" as const })),
  } as never);
  await services.indexer.runOnce(workspace.id);
  const server = buildApp({ services, logger, rateLimits: { ...BENCH_RATE_LIMITS, shared: process.env.PROFILE_SHARED_LIMITS !== "false" } }).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let n = 0;
  const path =
    endpoint === "fetch"
      ? () => `/api/v1/artifacts/${artifactIds[n++ % artifactIds.length]}`
      : () => `/api/v1/artifacts?query=${encodeURIComponent(["churn in EMEA", "refunds in Japan", "ad spend went up"][n++ % 3]!)}`;
  const auth = { authorization: `Bearer ${key.key}` };
  await load(path, base, auth, 32, 1000);

  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  const result = await load(path, base, auth, 32, LOAD_MS);
  const { profile } = (await session.post("Profiler.stop")) as { profile: { nodes: ProfileNode[] } };
  session.disconnect();

  const byOwner = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    total += hits;
    const name = node.callFrame.functionName === "(idle)" ? "(idle)" : owner(node.callFrame.url);
    byOwner.set(name, (byOwner.get(name) ?? 0) + hits);
  }
  console.log(`${endpoint} at 32 connections on ${url ? "PostgreSQL" : "the embedded database"}: ${result.perSecond.toFixed(0)} req/s, p50 ${result.p50.toFixed(1)} ms`);
  console.log("| self time of the main thread | share |\n|---|---|");
  for (const [name, hits] of [...byOwner].sort((a, b) => b[1] - a[1]).slice(0, 15)) {
    console.log(`| ${name} | ${((hits / total) * 100).toFixed(1)}% |`);
  }
  if (process.env.PROFILE_FUNCTIONS) {
    const byFunction = new Map<string, number>();
    for (const node of profile.nodes) {
      const name = `${node.callFrame.functionName || "(anonymous)"} ${owner(node.callFrame.url)}`;
      byFunction.set(name, (byFunction.get(name) ?? 0) + (node.hitCount ?? 0));
    }
    for (const [name, hits] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${((hits / total) * 100).toFixed(1)}% ${name}`);
  }
  await new Promise((resolve) => server.close(resolve));
  await embeddings.close();
  await database.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
