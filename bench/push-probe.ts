import type { AddressInfo } from "node:net";
import { buildApp } from "../src/app";
import { embeddedDatabase, postgresDatabase } from "../src/db/database";
import { openMemoryDatabase } from "../src/db/embedded-database";
import { applyMigrations } from "../src/db/migrations";
import { LocalEmbeddings } from "../src/embeddings/local-embeddings";
import { systemClock } from "../src/lib/clock";
import { createLogger } from "../src/lib/logger";
import { createServices } from "../src/services";
import { BENCH_RATE_LIMITS } from "./bench-rate-limits";
import { median } from "./load";
import { benchArtifact, resetPostgres } from "./pipeline-bench";

async function main() {
  const url = process.env.BENCH_DATABASE_URL;
  let database;
  if (url) { await resetPostgres(url); database = postgresDatabase(url); }
  else { const e = await openMemoryDatabase(); await applyMigrations(e.executor); database = embeddedDatabase(e); }
  const logger = createLogger("silent");
  const embeddings = new LocalEmbeddings({ indexThreads: Number(process.env.THREADS ?? 2) });
  const services = createServices({ database, clock: systemClock, logger, embeddings });
  const ws = await services.workspaces.create({ name: "p" });
  const key = await services.apiKeys.create(ws.id, { name: "p" });
  const server = buildApp({ services, logger, rateLimits: BENCH_RATE_LIMITS }).listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const auth = { authorization: `Bearer ${key.key}` };
  const run = async (name: string, body: (i: number) => unknown) => {
    const times: number[] = [];
    for (let i = 0; i < 150; i++) {
      const s = performance.now();
      const res = await fetch(`${base}/api/v1/artifacts`, { method: "POST", headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify(body(i)) });
      await res.arrayBuffer();
      times.push(performance.now() - s);
    }
    console.log(name, median(times.slice(20)).toFixed(1), "ms");
  };
  const noBody = (i: number) => { const { content, ...rest } = benchArtifact(i); return rest; };
  await run("warm", benchArtifact);
  await run("no body, indexer off", noBody);
  await run("body, indexer off", benchArtifact);
  services.indexer.start();
  await run("no body, indexer on", noBody);
  await run("body, indexer on", benchArtifact);
  await services.indexer.stop();
  server.close(); await embeddings.close(); await database.close();
}
main();
