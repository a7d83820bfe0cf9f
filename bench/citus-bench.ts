import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { postgresDatabase } from "../src/db/database";
import { migrateDatabase } from "../src/db/database-readiness";
import { applyMigrations } from "../src/db/migrations";
import { postgresExecutor } from "../src/db/postgres-executor";
import { LocalEmbeddings } from "../src/embeddings/local-embeddings";
import { maintainSearchNow } from "../src/indexing/search-maintenance";
import { ownIndexOnWorker } from "../tests/support/citus-shards";
import { onServer as withClient } from "../tests/support/postgres-server";
import { buildCorpus } from "./scale/corpus";
import { percentile, startApp } from "./scale/measure";
import { ms, ratio, seconds, table, thousands } from "./scale/report";
import { seedDatabase, vacuumAnalyze, type WorkspacePlan } from "./scale/seed";

// `npm run bench:citus` (never part of `npm test`): what distributing costs and what a rebalance
// does to a running service, on a throwaway Citus cluster of its own (scripts/citus-cluster.sh:
// a coordinator and two workers on loopback, stopped at the end).
// 1. Rows first, distribution second: the database migrated as on one server, seeded with
//    CITUS_WORKSPACES workspaces of CITUS_ARTIFACTS artifacts (and one of CITUS_LARGE, which gets its
//    own vector index), then `npm run migrate`'s distribution timed.
// 2. A third worker added, and `citus_rebalance_start` run while one client pushes drafts and
//    another searches: every acknowledged push is looked for afterwards, every answer's status
//    counted, and the large workspace's own index looked for on the node its shard moved to.
// 3. The large workspace given a shard and a node of its own (`workspace:isolate`: one split onto the node)
//    while the others are searched and every one pushed to: their p95 beside 15 s just before,
//    its own index where it landed, and the next rebalance's plan.

const ROOT = path.resolve(__dirname, "..");
const CLUSTER = path.join(ROOT, "scripts", "citus-cluster.sh");
const WORKSPACES = Number(process.env.CITUS_WORKSPACES ?? 20);
const ARTIFACTS = Number(process.env.CITUS_ARTIFACTS ?? 1_000);
const LARGE = Number(process.env.CITUS_LARGE ?? 12_000);
const progress = (message: string) => console.error(`[citus] ${message}`);

const cluster = (...args: string[]) => execFileSync(CLUSTER, args, { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });

/** Which node holds a workspace's shard of artifact vectors, and its own index there. */
async function shardOf(url: string, workspaceId: string) {
  const { node, index } = await ownIndexOnWorker(url, workspaceId, "artifact_embeddings");
  return { node: `${node.host}:${node.port}`, index };
}

interface ClientTally {
  statuses: Map<number, number>;
  latencies: number[];
  /** When each request was sent (performance.now()), beside its latency. */
  sentAt: number[];
  errors: number;
}

const tally = (): ClientTally => ({ statuses: new Map(), latencies: [], sentAt: [], errors: 0 });
/** The latencies of the requests sent in [from, to). */
const sentBetween = (t: ClientTally, from: number, to: number) => t.latencies.filter((_, i) => t.sentAt[i]! >= from && t.sentAt[i]! < to);
const count = (t: ClientTally, status: number) => t.statuses.set(status, (t.statuses.get(status) ?? 0) + 1);
const statuses = (t: ClientTally) => [...t.statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status} × ${thousands(n)}`).join(", ") + (t.errors ? `, ${t.errors} failed to connect` : "");

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "wsi-citus-bench-"));
  progress(`starting a cluster in ${dir}`);
  const url = cluster("start", dir).trim().split("\n").pop()!.replace(/^DATABASE_URL=/, "");
  const closers: Array<() => Promise<unknown>> = [async () => cluster("stop", dir)];
  try {
    // 1. Distributing a database that holds data.
    await withClient(url, (client) => applyMigrations(postgresExecutor(client)));
    const embeddings = new LocalEmbeddings();
    closers.unshift(() => embeddings.close());
    const corpus = buildCorpus();
    const embed = async (texts: string[]) => {
      const out: number[][] = [];
      for (let i = 0; i < texts.length; i += 64) out.push(...(await embeddings.embed(texts.slice(i, i + 64))));
      return out;
    };
    const vectors = { model: embeddings.model, templates: await embed(corpus.templates.map((t) => t.text)), words: await embed(corpus.words.words) };
    const plans: WorkspacePlan[] = [
      { name: `large ${LARGE}`, domain: 0, artifacts: LARGE, memories: 100, patterns: 100, content: "large" },
      ...Array.from({ length: WORKSPACES }, (_, i) => ({ name: `small ${i + 1}`, domain: 1 + (i % 5), artifacts: ARTIFACTS, memories: ARTIFACTS / 10, patterns: ARTIFACTS / 10, content: `small ${i + 1}` })),
    ];
    progress(`seeding ${plans.length} workspaces on the coordinator's own tables`);
    const seeded = await seedDatabase(url, plans, corpus, vectors);
    const rows = await withClient(url, async (client) =>
      (await client.query<{ artifacts: string; vectors: string }>(`SELECT (SELECT count(*) FROM artifacts) AS artifacts, (SELECT count(*) FROM artifact_embeddings) AS vectors`)).rows[0]!,
    );
    progress("distributing (npm run migrate)");
    const distributeStarted = performance.now();
    let placed: string[] = [];
    await migrateDatabase(url, { onDistributed: (tables) => (placed = tables) });
    const distributeMs = performance.now() - distributeStarted;
    await vacuumAnalyze(url);

    const database = postgresDatabase(url);
    closers.unshift(() => database.close());
    await maintainSearchNow(database);
    const large = seeded.workspaces.find((workspace) => workspace.name === plans[0]!.name)!;
    const app = await startApp(database, embeddings);
    closers.unshift(() => app.close());

    console.log(`## Citus bench: ${os.cpus().length} cores, a coordinator and 2 workers, then 3 (Node ${process.version})\n`);
    console.log(
      table(
        ["what", "figure"],
        [
          ["rows distributed", `${thousands(Number(rows.artifacts))} artifacts, ${thousands(Number(rows.vectors))} artifact vectors, in ${plans.length} workspaces`],
          ["tables and functions placed by `npm run migrate`", String(placed.length)],
          ["distribution (one transaction)", seconds(distributeMs)],
        ],
      ),
    );

    // 2. A worker added and the shards rebalanced while the service is used.
    const before = await shardOf(url, large.id);
    const smalls = seeded.workspaces.filter((workspace) => workspace.id !== large.id);
    const auth = new Map<string, Record<string, string>>();
    for (const workspace of seeded.workspaces) auth.set(workspace.id, await app.authFor(workspace.id));
    // One client pushes drafts to every workspace in turn, another searches (`searchIn` says where), one request at a time each.
    const startClients = (searchIn: (i: number) => { id: string }) => {
      let running = true;
      const pushes = tally();
      const searches = tally();
      const acknowledged: Array<{ workspaceId: string; id: string }> = [];
      const pusher = (async () => {
        for (let i = 0; running; i++) {
          const workspace = seeded.workspaces[i % seeded.workspaces.length]!;
          const sent = performance.now();
          try {
            const res = await fetch(`${app.base}/api/v1/artifacts`, {
              method: "POST",
              headers: { ...auth.get(workspace.id)!, "content-type": "application/json", "idempotency-key": `rebalance-${performance.now()}-${i}` },
              body: JSON.stringify({ summary: `Rebalance push ${i}: churn by plan moved`, why: "Measured while the shards moved", confidence: 0.5, confidenceExplanation: "bench", dataSources: [{ type: "database", name: "warehouse" }], content: "## During a rebalance" }),
            });
            const body = (await res.json()) as { artifactId?: string };
            count(pushes, res.status);
            if (res.status === 201 && body.artifactId) acknowledged.push({ workspaceId: workspace.id, id: body.artifactId });
          } catch {
            pushes.errors += 1;
          }
          pushes.latencies.push(performance.now() - sent);
          pushes.sentAt.push(sent);
        }
      })();
      const searcher = (async () => {
        for (let i = 0; running; i++) {
          const workspace = searchIn(i);
          const sent = performance.now();
          try {
            const res = await fetch(`${app.base}/api/v1/artifacts?query=${encodeURIComponent("which plans lose the most accounts")}&limit=10`, { headers: auth.get(workspace.id) });
            await res.arrayBuffer();
            count(searches, res.status);
          } catch {
            searches.errors += 1;
          }
          searches.latencies.push(performance.now() - sent);
          searches.sentAt.push(sent);
        }
      })();
      return {
        pushes,
        searches,
        acknowledged,
        stop: async () => {
          running = false;
          await Promise.all([pusher, searcher]);
        },
      };
    };
    const clients = startClients((i) => (i % 4 === 0 ? large : smalls[i % smalls.length]!));
    const { pushes, searches, acknowledged } = clients;

    progress("adding a third worker");
    const addStarted = performance.now();
    cluster("start", dir, "--workers", "3");
    const addMs = performance.now() - addStarted;
    progress("rebalancing");
    const rebalanceStarted = performance.now();
    // block_writes: what a cluster without wal_level = logical gets (`npm run bench:citus-failures`
    // measures the move by logical replication under a paced load).
    await withClient(url, (client) => client.query(`SELECT citus_rebalance_start(shard_transfer_mode => 'block_writes')`));
    await withClient(url, (client) => client.query(`SELECT citus_rebalance_wait()`));
    const rebalanceMs = performance.now() - rebalanceStarted;
    const moved = await withClient(url, async (client) =>
      (await client.query<{ tasks: string }>(`SELECT count(*)::text AS tasks FROM pg_dist_background_task WHERE status = 'done'`)).rows[0]!.tasks,
    );
    // A little more traffic on the moved shards, then the clients stop.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await clients.stop();

    const foundOf = (pushed: Array<{ workspaceId: string; id: string }>) =>
      withClient(url, async (client) => {
        let n = 0;
        for (const { workspaceId, id } of pushed) n += (await client.query(`SELECT 1 FROM artifacts WHERE workspace_id = $1 AND id = $2`, [workspaceId, id])).rowCount ?? 0;
        return n;
      });
    const found = await foundOf(acknowledged);
    const after = await shardOf(url, large.id);
    // The upkeep's next pass (the worker runs one a minute): the index is built again where the shard is now.
    const upkeepStarted = performance.now();
    await maintainSearchNow(database);
    const upkeepMs = performance.now() - upkeepStarted;
    const rebuilt = await shardOf(url, large.id);
    const res = await fetch(`${app.base}/api/v1/artifacts?query=${encodeURIComponent("which plans lose the most accounts")}`, { headers: auth.get(large.id) });
    await res.arrayBuffer();
    const nodes = await withClient(url, async (client) =>
      (await client.query<{ node: string; shards: string }>(`SELECT nodename || ':' || nodeport AS node, count(*)::text AS shards FROM pg_dist_shard_placement GROUP BY 1 ORDER BY 1`)).rows,
    );
    console.log(
      `\n${table(
        ["while a worker is added and the shards rebalanced", "figure"],
        [
          ["adding the worker (start, CREATE EXTENSION, citus_add_node)", seconds(addMs)],
          ["citus_rebalance_start … citus_rebalance_wait (block_writes)", `${seconds(rebalanceMs)}, ${moved} moves`],
          ["shard placements per node after", nodes.map((row) => `${row.node}: ${row.shards}`).join("; ")],
          ["pushes answered", statuses(pushes)],
          ["push p50 / p95 / max", `${ms(percentile(pushes.latencies, 0.5))} / ${ms(percentile(pushes.latencies, 0.95))} / ${ms(Math.max(...pushes.latencies))}`],
          ["acknowledged pushes found afterwards", `${thousands(found)} of ${thousands(acknowledged.length)}`],
          ["searches answered", statuses(searches)],
          ["search p50 / p95 / max", `${ms(percentile(searches.latencies, 0.5))} / ${ms(percentile(searches.latencies, 0.95))} / ${ms(Math.max(...searches.latencies))}`],
          [`the ${thousands(LARGE)}-artifact workspace's vector shard`, `${before.node} → ${after.node}`],
          ["its own index on that node right after the move", after.index ? after.index.name : "not there (searched exactly meanwhile)"],
          ["the upkeep's next pass", `${seconds(upkeepMs)}; the index ${rebuilt.index ? `${rebuilt.index.name} on ${rebuilt.node}` : "still missing"}`],
          ["a search of it after", String(res.status)],
        ],
      )}\n`,
    );

    // 3. The large workspace given a shard and a node of its own (the admin command's service) while
    // the other workspaces are searched and every one is pushed to: their p95 beside a window just before.
    const isolatedFrom = await shardOf(url, large.id);
    const target = (await withClient(url, async (client) => (await client.query<{ node: string }>(`SELECT nodename || ':' || nodeport AS node FROM pg_dist_node WHERE groupid > 0 ORDER BY nodeid`)).rows))
      .map((row) => row.node)
      .find((node) => node !== isolatedFrom.node)!;
    const quiet = startClients((i) => smalls[i % smalls.length]!);
    await new Promise((resolve) => setTimeout(resolve, 15_000));
    await quiet.stop();
    const busy = startClients((i) => smalls[i % smalls.length]!);
    progress(`isolating the large workspace onto ${target}`);
    // When the split's switch-over commits, seen from outside: the copy before it, its own index after.
    const isolateStarted = performance.now();
    let switchedAt: number | undefined;
    const watching = (async () => {
      while (switchedAt === undefined) {
        const alone = await withClient(url, async (client) =>
          (await client.query<{ alone: boolean }>(`SELECT shardminvalue = shardmaxvalue AS alone FROM pg_dist_shard WHERE shardid = get_shard_id_for_distribution_column('workspaces', $1::text)`, [large.id])).rows[0]!.alone,
        );
        if (alone) switchedAt = performance.now();
        else await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const isolation = await app.services.workspacePlacement.isolate(large.id, { node: target });
    const isolateEnded = performance.now();
    await watching;
    await busy.stop();
    const isolatedAt = await shardOf(url, large.id);
    const plan = await withClient(url, async (client) =>
      (await client.query<{ shardid: string; targetname: string; targetport: number }>(`SELECT shardid::text AS shardid, targetname, targetport FROM get_rebalance_table_shards_plan()`)).rows,
    );
    const isolatedShards = await withClient(url, async (client) =>
      (await client.query<{ shardid: string }>(`SELECT get_shard_id_for_distribution_column(table_name, $1::text)::text AS shardid FROM citus_shards WHERE citus_table_type = 'distributed' GROUP BY table_name`, [large.id])).rows.map((row) => row.shardid),
    );
    const p95 = (t: ClientTally) => percentile(t.latencies, 0.95);
    console.log(
      `\n${table(
        ["the large workspace isolated onto a node of its own while the others are used", "figure"],
        [
          ["split onto the node (citus_split_shard_by_split_points) + its own index built there", `${seconds(isolation.tookMs)}; ${isolatedFrom.node} → ${isolation.node}, shard ${isolation.shardId}`],
          ["other workspaces' searches before (15 s) / during", `${statuses(quiet.searches)} / ${statuses(busy.searches)}`],
          ["their search p95 before / during", `${ms(p95(quiet.searches))} / ${ms(p95(busy.searches))} (${ratio(p95(busy.searches) / p95(quiet.searches))})`],
          [
            "their search p95 during the copy / after it (its own index built)",
            `${ms(percentile(sentBetween(busy.searches, isolateStarted, switchedAt!), 0.95))} (${seconds(switchedAt! - isolateStarted)}) / ${ms(percentile(sentBetween(busy.searches, switchedAt!, isolateEnded), 0.95))} (${seconds(isolateEnded - switchedAt!)})`,
          ],
          ["pushes during (every workspace)", statuses(busy.pushes)],
          ["push p95 before / during, longest during", `${ms(p95(quiet.pushes))} / ${ms(p95(busy.pushes))}, ${ms(Math.max(...busy.pushes.latencies))}`],
          ["acknowledged pushes found afterwards", `${thousands(await foundOf([...quiet.acknowledged, ...busy.acknowledged]))} of ${thousands(quiet.acknowledged.length + busy.acknowledged.length)}`],
          ["its own index where it landed", isolatedAt.index ? `${isolatedAt.index.name} on ${isolatedAt.node} (built by the command: ${isolation.ownIndexesBuilt.join(", ") || "none"})` : "not there"],
          ["a later rebalance's plan", `${plan.length} moves; of its shards ${plan.filter((move) => isolatedShards.includes(move.shardid)).length}; onto its node ${plan.filter((move) => `${move.targetname}:${move.targetport}` === isolation.node).length}`],
        ],
      )}\n`,
    );
  } finally {
    for (const close of closers) await close().catch((error: unknown) => progress(`while closing: ${String(error)}`));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
