import { LocalEmbeddings } from "../src/embeddings/local-embeddings";
import { systemClock } from "../src/lib/clock";
import { createLogger } from "../src/lib/logger";
import { createServices } from "../src/services";
import { median } from "./load";
import { benchArtifact, openDatabase } from "./pipeline-bench";
import { createArtifactSearchRepository, nearestQuery } from "../src/repositories/artifact-search.repository";
import { createVectorIndexRepository } from "../src/repositories/vector-index.repository";

// `npx tsx bench/search-steps.ts`: the median time of each step of an artifact search over 1,000
// bench artifacts (6,000 vectors), one at a time: the query embedding, the nearest vectors, the
// candidate statements with and without a vector, the whole service call (which runs the text
// statement while the query is embedded). BENCH_DATABASE_URL measures on that PostgreSQL server
// (its public schema is dropped!).

async function main() {
  const database = await openDatabase(process.env.BENCH_DATABASE_URL);
  const embeddings = new LocalEmbeddings();
  const services = createServices({ database, clock: systemClock, logger: createLogger("silent"), embeddings });
  const ws = await services.workspaces.create({ name: "p" });
  await services.imports.importDocument(ws.id, { artifacts: Array.from({ length: 1000 }, (_, n) => ({ ...benchArtifact(n), status: "validated" as const })) } as never);
  await services.indexer.runOnce(ws.id);
  const indexes = createVectorIndexRepository(database.prisma, { engine: database.kind });
  const repo = createArtifactSearchRepository(database.prisma, indexes);
  const texts = ["churn in EMEA", "refunds in Japan", "ad spend went up"];
  const vectors = await Promise.all(texts.map(async (t) => ({ vector: await embeddings.embedQuery(t), model: embeddings.model })));
  console.log(`| step (${process.env.BENCH_DATABASE_URL ? "PostgreSQL" : "embedded"}) | median |\n|---|---|`);
  const time = async (name: string, f: (i: number) => Promise<unknown>) => {
    const ms: number[] = [];
    for (let i = 0; i < 60; i++) { const s = performance.now(); await f(i); ms.push(performance.now() - s); }
    console.log(`| ${name} | ${median(ms.slice(10)).toFixed(2)} ms |`);
  };
  await time("embedQuery", (i) => embeddings.embedQuery(texts[i % 3]!));
  await time("nearest (strategy chosen)", (i) => repo.nearest(ws.id, vectors[i % 3]!));
  await time("candidates, vector ready (text statement, then vector statement)", (i) => repo.candidates(ws.id, { text: texts[i % 3]!, vector: vectors[i % 3]! }));
  await time("candidates, no vector (text statement)", (i) => repo.candidates(ws.id, { text: texts[i % 3]! }));
  await time("nearest, exact scan", (i) => database.prisma.$queryRaw(nearestQuery(ws.id, vectors[i % 3]!, { exactDistance: indexes.exactDistance })));
  await time("searchWorkspace", (i) => services.artifacts.searchWorkspace(ws.id, texts[i % 3]!, 10));
  await embeddings.close(); await database.close();
}
main();
