import { rmSync } from "node:fs";
import path from "node:path";
import { TEST_RUN_VARIABLE, leftoverProcesses } from "./leftover-processes";
import { TEST_DATABASE_URL, dropDatabase, onServer } from "./postgres-server";

export default async function globalTeardown(): Promise<void> {
  stopLeftoverProcesses();
  const file = process.env.WSI_TEST_TEMPLATE;
  if (file) rmSync(path.dirname(file), { recursive: true, force: true });
  const template = process.env.WSI_TEST_PG_TEMPLATE;
  if (TEST_DATABASE_URL && template) {
    // The template and any copy a crashed test file left behind.
    const names = await onServer(TEST_DATABASE_URL, async (client) => {
      const { rows } = await client.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [`${template}%`]);
      return rows.map((row) => row.datname);
    });
    for (const name of names) await dropDatabase(TEST_DATABASE_URL, name);
  }
}

/** No process a test started outlives the run, whatever became of the test or its worker. */
function stopLeftoverProcesses(): void {
  const runId = process.env[TEST_RUN_VARIABLE];
  if (!runId) return;
  const leftovers = leftoverProcesses(TEST_RUN_VARIABLE, runId);
  for (const { pid } of leftovers) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Exited meanwhile.
    }
  }
  if (leftovers.length > 0) {
    process.stderr.write(`stopped ${leftovers.length} process(es) that tests left running:\n${leftovers.map((p) => `  ${p.pid} ${p.command.slice(0, 200)}`).join("\n")}\n`);
  }
}
