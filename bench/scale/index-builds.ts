import { Client } from "pg";
import type { BuiltIndex } from "../../src/indexing/vector-index-maintenance";
import { seconds, table, thousands } from "./report";

/** The server's own maintenance_work_mem for new connections, as a build would find it without raising it. */
export async function serverMaintenanceMemory(url: string): Promise<string> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ setting: string }>("SELECT current_setting('maintenance_work_mem') AS setting")).rows[0]!.setting;
  } finally {
    await client.end();
  }
}

/**
 * Each own index the upkeep built (maintainSearchNow) on a server left at its own
 * maintenance_work_mem: the lists it chose, the memory its session raised the setting to for
 * pgvector's k-means (INDEX_BUILD_MEMORY_MB caps it), and how long the build took.
 */
export function indexBuildsReport(label: string, setting: string, built: BuiltIndex[], names: Map<string, string>): string {
  const rows = [...built]
    .sort((a, b) => b.vectors - a.vectors)
    .map((index) => [names.get(index.workspaceId) ?? index.workspaceId, index.table, thousands(index.vectors), thousands(index.lists), `${Math.ceil(index.memoryKb / 1024)} MB`, seconds(index.ms)]);
  const heading = `Own index builds, ${label} (server's maintenance_work_mem ${setting}; ${built.length} built):`;
  return `${heading}\n\n${table(["workspace", "table", "vectors", "lists", "maintenance_work_mem set", "build"], rows)}`;
}
