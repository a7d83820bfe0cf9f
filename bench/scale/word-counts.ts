import { Client } from "pg";
import { percentile } from "./measure";
import { ms, seconds, table, thousands, type Targets } from "./report";

// Do the word counts (search_term_counts) stay the size of the live vocabulary? One workspace's
// artifacts are deleted one statement each, as the admin route deletes them, and written back in
// one statement, as an import writes them; the workspace's rows are counted before, between and
// after, beside the vocabulary its validated artifacts hold.

interface Figures {
  rows: number;
  /** Distinct lexemes of the workspace's validated artifacts, plus the collection's '' row. */
  vocabulary: number;
}

async function figures(client: Client, workspaceId: string): Promise<Figures> {
  const { rows } = await client.query<{ rows: number; vocabulary: number }>(
    `SELECT (SELECT count(*)::int FROM search_term_counts WHERE workspace_id = $1 AND collection = 'artifacts') AS rows,
            (SELECT count(DISTINCT l.lexeme)::int + (CASE WHEN count(*) > 0 THEN 1 ELSE 0 END)
             FROM artifacts a CROSS JOIN LATERAL unnest(tsvector_to_array(a.search_document)) AS l(lexeme)
             WHERE a.workspace_id = $1 AND a.status = 'validated') AS vocabulary`,
    [workspaceId],
  );
  return rows[0]!;
}

export async function measureWordCounts(url: string, workspace: { name: string; id: string }, artifacts: number, targets: Targets): Promise<string> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    // The columns a row is written back with: generated ones are computed again.
    const { rows: columns } = await client.query<{ name: string }>(
      `SELECT quote_ident(column_name) AS name FROM information_schema.columns
       WHERE table_schema = 'public' AND table_name = 'artifacts' AND is_generated = 'NEVER' ORDER BY ordinal_position`,
    );
    const list = columns.map((column) => column.name).join(", ");
    await client.query(`DROP TABLE IF EXISTS word_count_cycle`);
    await client.query(
      `CREATE TEMP TABLE word_count_cycle AS SELECT ${list} FROM artifacts WHERE workspace_id = $1 AND status = 'validated' ORDER BY id LIMIT ${artifacts}`,
      [workspace.id],
    );
    const { rows: ids } = await client.query<{ id: string }>(`SELECT id FROM word_count_cycle ORDER BY id`);
    const before = await figures(client, workspace.id);

    const deletes: number[] = [];
    const deleteStarted = performance.now();
    for (const { id } of ids) {
      const started = performance.now();
      await client.query(`DELETE FROM artifacts WHERE workspace_id = $1 AND id = $2`, [workspace.id, id]);
      deletes.push(performance.now() - started);
    }
    const deleteMs = performance.now() - deleteStarted;
    const deleted = await figures(client, workspace.id);

    const addStarted = performance.now();
    await client.query(`INSERT INTO artifacts (${list}) SELECT ${list} FROM word_count_cycle`);
    const addMs = performance.now() - addStarted;
    const readded = await figures(client, workspace.id);
    await client.query(`DROP TABLE word_count_cycle`);

    const bounded = (f: Figures) => f.rows === f.vocabulary;
    const row = (step: string, f: Figures, took: string) => [step, thousands(f.rows), thousands(f.vocabulary), took, targets.check(`word counts ${step}`, bounded(f))];
    return (
      `### Word counts: ${thousands(ids.length)} artifacts of ${workspace.name} deleted and added again (big database)\n\n` +
      table(["step", "search_term_counts rows (artifacts)", "live vocabulary + 1", "time", "rows = vocabulary"], [
        row("before", before, "–"),
        row(`after deleting ${thousands(ids.length)}`, deleted, `${seconds(deleteMs)} (p50 ${ms(percentile(deletes, 0.5))} a delete)`),
        row("after adding them again", readded, seconds(addMs)),
      ]) +
      `\n\nTarget: the rows are the live vocabulary, no more (a word's row goes with its last document).`
    );
  } finally {
    await client.end();
  }
}
