import http from "node:http";
import { namedStatement } from "../../src/db/named-statement";
import { floorWorkspace, openFloorDb, serveUntilSigterm } from "./floor-db";

// The fetch floor, a process of its own: `GET /a/:id` answers the artifact's stored row as JSON
// text, made by the database in the one statement that reads it. No framework, no authentication,
// no validation, no response schema: what any server answering a fetch by id must at least do
// (parse a request, one indexed read through the driver, write the bytes). Its statement is named,
// as the service's is (src/db/named-statement.ts): a floor that parsed and planned its read on
// every request would be slower than the service. The row's columns as stored, less the two the
// schema derives for search and no answer shows (body_text, the prose of the body, and
// search_document, its tsvector): with them the floor would write about twice the bytes and turn
// a tsvector into text on every fetch, work the service never does.

/** Derived columns of the artifacts table, left out of the floor's answer. */
const DERIVED = ["body_text", "search_document"];

async function main() {
  const workspaceId = floorWorkspace();
  const db = await openFloorDb();
  const columns = (
    await db.query<{ name: string }>(
      "SELECT column_name AS name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = 'artifacts' ORDER BY ordinal_position",
    )
  )
    .map((column) => column.name)
    .filter((name) => !DERIVED.includes(name));
  if (columns.length < 10) throw new Error(`unexpected columns of artifacts: ${columns.join(", ")}`);
  // Named, as the service's fetch is: parsed and planned once, not on every request.
  const statement = namedStatement(
    "fetch_floor",
    `SELECT row_to_json(a)::text AS json FROM (SELECT ${columns.map((name) => `"${name}"`).join(", ")} FROM artifacts WHERE workspace_id = $1 AND id = $2) a`,
  );
  console.log(`fetch floor: ${statement.text}`);
  const server = http.createServer((req, res) => {
    const id = req.url?.startsWith("/a/") ? decodeURIComponent(req.url.slice(3)) : "";
    db.queryNamed<{ json: string }>(statement, [workspaceId, id]).then(
      (rows) => {
        if (rows[0]) res.writeHead(200, { "content-type": "application/json" }).end(rows[0].json);
        else res.writeHead(404).end();
      },
      (error: unknown) => res.writeHead(500).end(String(error)),
    );
  });
  serveUntilSigterm(server, "fetch floor", () => db.close());
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
