import { randomBytes } from "node:crypto";
import { Client } from "pg";
import { waitFor } from "./wait-for";

/**
 * The PostgreSQL pass: with TEST_DATABASE_URL naming a server (any database on it), global setup
 * migrates one template database and each test file gets its own copy (CREATE DATABASE … TEMPLATE,
 * ≈0.1 s), dropped when it closes.
 */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;

export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function onServer<T>(serverUrl: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A node of the server: one PostgreSQL, or each of a Citus cluster's (the coordinator first). */
interface Node {
  host: string;
  port: number;
}

const clusters = new Map<string, Promise<Node[] | undefined>>();

/**
 * The nodes of a Citus cluster whose coordinator `serverUrl` names (its database has the `citus`
 * extension and the workers registered, as ../shared/tools/citus leaves it), coordinator first;
 * undefined for a plain server. A database of the cluster is one database of that name on every
 * node, each with the extension, the workers registered on the coordinator's.
 */
export function clusterNodes(serverUrl: string): Promise<Node[] | undefined> {
  let nodes = clusters.get(serverUrl);
  if (!nodes) {
    nodes = onServer(serverUrl, async (client) => {
      const { rows } = await client.query<{ citus: boolean }>(`SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') AS citus`);
      if (!rows[0]?.citus) return undefined;
      const found = await client.query<{ host: string; port: number }>(`SELECT nodename AS host, nodeport AS port FROM pg_dist_node ORDER BY groupid`);
      return found.rows;
    });
    clusters.set(serverUrl, nodes);
  }
  return nodes;
}

export const isCitusServer = async (serverUrl: string) => (await clusterNodes(serverUrl)) !== undefined;

function onNode(serverUrl: string, node: Node, database: string): string {
  const url = new URL(serverUrl);
  url.hostname = node.host;
  url.port = String(node.port);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Runs `statement` (one, with the database's name in it) on the server, or on every node of a cluster. */
async function onEveryNode(serverUrl: string, statement: string): Promise<void> {
  const nodes = await clusterNodes(serverUrl);
  if (!nodes) {
    await onServer(serverUrl, (client) => client.query(statement));
    return;
  }
  await Promise.all(nodes.map((node) => onServer(onNode(serverUrl, node, "postgres"), (client) => client.query(statement))));
}

/**
 * A new empty database. Its collation is ICU's en-US, as on managed plans (en_US.UTF-8), rather than
 * the byte order of C and of the embedded engine: sorting that leans on byte order shows up here.
 * On a Citus cluster it is a database of the cluster, as a managed Citus gives one: the extensions
 * on every node and the workers registered.
 */
export async function createEmptyDatabase(serverUrl: string, name: string): Promise<string> {
  await onEveryNode(serverUrl, `CREATE DATABASE "${name}" TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US'`);
  const nodes = await clusterNodes(serverUrl);
  if (nodes) {
    await Promise.all(nodes.map((node) => onServer(onNode(serverUrl, node, name), (client) => client.query(`CREATE EXTENSION citus`))));
    const [coordinator, ...workers] = nodes;
    await onServer(onNode(serverUrl, coordinator!, name), async (client) => {
      await client.query(`SELECT citus_set_coordinator_host($1, $2)`, [coordinator!.host, coordinator!.port]);
      for (const worker of workers) await client.query(`SELECT citus_add_node($1, $2)`, [worker.host, worker.port]);
    });
  }
  return databaseUrl(serverUrl, name);
}

export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  // On a Citus node the database's maintenance daemon may be starting again as the drop ends the
  // sessions; the drop is refused then ("being accessed by other users", 55006) and tried again.
  await waitFor(
    () =>
      onEveryNode(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).then(
        () => true,
        (error: unknown) => {
          if ((error as { code?: string }).code === "55006") return false;
          throw error;
        },
      ),
    { what: `database ${name} dropped`, everyMs: 200 },
  );
}

export function uniqueDatabaseName(prefix: string): string {
  return `${prefix}_${randomBytes(6).toString("hex")}`;
}

/**
 * Makes a migrated database the template of the test files' databases: nobody may be connected to
 * a template while it is copied, and on a cluster the coordinator's and Citus's own sessions are
 * (the maintenance daemon, the coordinator's connections to the workers), so it takes no more
 * connections and those it has are ended.
 */
export async function sealTemplate(serverUrl: string, name: string): Promise<void> {
  await onEveryNode(serverUrl, `ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
  await onEveryNode(serverUrl, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}' AND pid <> pg_backend_pid()`);
}

/**
 * A fresh migrated database for one test file, copied from the template global setup made
 * (≈0.1 s). On a Citus cluster every node copies its own database of the template: the copies
 * name the same nodes and shards, so together they are a cluster database as the template was.
 */
export async function createMigratedDatabase(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const template = process.env.WSI_TEST_PG_TEMPLATE;
  if (!template) throw new Error("WSI_TEST_PG_TEMPLATE is not set: run the tests through jest's global setup");
  const name = uniqueDatabaseName(template);
  await onEveryNode(serverUrl, `CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  return { url: databaseUrl(serverUrl, name), drop: () => dropDatabase(serverUrl, name) };
}
