import path from "node:path";
import { migrateDatabase } from "../../src/db/database-readiness";
import { killStartedProcesses, spawnTracked } from "../support/child-processes";
import { TEST_DATABASE_URL, createEmptyDatabase, dropDatabase, uniqueDatabaseName } from "../support/postgres-server";

// The real entry point on a managed database, as a web dyno runs it.
const ROOT = path.resolve(__dirname, "../..");
const PRODUCTION_ENV = {
  PUBLIC_BASE_URL: "https://wsi.example.com",
  SIGNING_SECRET: "a-signing-secret-of-at-least-32-characters",
  ADMIN_TOKEN: "",
  PORT: "0",
  NODE_OPTIONS: "",
};

function startServer(databaseUrl: string) {
  // tsx as a loader inside the one process (not its CLI, which relays signals from a parent process
  // and may exit on SIGTERM itself before the server has registered its handler).
  const child = spawnTracked(process.execPath, ["--import", "tsx", "src/server.ts"], {
    cwd: ROOT,
    env: { ...process.env, ...PRODUCTION_ENV, DATABASE_URL: databaseUrl },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += String(chunk)));
  child.stderr!.on("data", (chunk) => (output += String(chunk)));
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  return { child, exited, output: () => output };
}

const created: string[] = [];
async function emptyDatabase(): Promise<string> {
  const name = uniqueDatabaseName("wsi_start");
  created.push(name);
  return createEmptyDatabase(TEST_DATABASE_URL!, name);
}
afterEach(killStartedProcesses);
afterAll(async () => {
  for (const name of created) await dropDatabase(TEST_DATABASE_URL!, name);
});

describe("the server process on PostgreSQL", () => {
  it("refuses to start on an unmigrated database and names npm run migrate", async () => {
    const server = startServer(await emptyDatabase());
    expect(await server.exited).toBe(1);
    expect(server.output()).toMatch(/lacks migrations? 20261120000000_init\b[^:]*: run `npm run migrate`/);
  });

  it("starts on a migrated database, answers /healthz, and stops on SIGTERM", async () => {
    const url = await emptyDatabase();
    await migrateDatabase(url);
    const server = startServer(url);
    const port = await new Promise<string>((resolve, reject) => {
      const timer = setInterval(() => {
        const match = /"port":(\d+)/.exec(server.output());
        if (match) {
          clearInterval(timer);
          resolve(match[1]!);
        }
      }, 100);
      void server.exited.then(() => {
        clearInterval(timer);
        reject(new Error(`server exited:\n${server.output()}`));
      });
    });
    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(res.status).toBe(200);
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  });
});
