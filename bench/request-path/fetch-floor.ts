import { randomUUID } from "node:crypto";
import http from "node:http";
import { namedStatement } from "../../src/db/named-statement";
import { floorWorkspace, openFloorDb, serveUntilSigterm } from "./floor-db";

// The fetch and push floors, a process of its own. `GET /a/:id` answers the artifact's stored row
// as JSON text, made by the database in the one statement that reads it. `POST /p` stores the
// pushed JSON in one statement, in a table of the floor's own (an id, the workspace, the body as
// `json`, which the database checks is JSON) and answers its id. No framework, no authentication,
// no validation, no response schema: what any server answering a fetch by id, or storing a push,
// must at least do (parse a request, one statement through the driver, write the bytes). Its
// statements are named, as the service's fetch is (src/db/named-statement.ts): a floor that parsed
// and planned each one on every request would be slower than the service. The fetched row's
// columns as stored, less the two the schema derives for search and no answer shows (body_text,
// the prose of the body, and search_document, its tsvector): with them the floor would write
// about twice the bytes and turn a tsvector into text on every fetch, work the service never does.
// The push floor stores none of what the service derives from a push (the body's prose and
// chunks, the search document, the pending vectors, the memory-bank entry): the least work there
// is, so that the push figure is read against this machine's speed in the same run.

const PUSH_TABLE = "push_floor";

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
  // Made on the first push: only the bench's last round pushes, and the service's other rounds run on this database.
  let pushTable: Promise<unknown> | undefined;
  const insert = namedStatement("push_floor", `INSERT INTO ${PUSH_TABLE} (id, workspace_id, body) VALUES ($1, $2, $3::json)`);
  const push = async (body: string): Promise<string> => {
    pushTable ??= db.query(`CREATE TABLE IF NOT EXISTS ${PUSH_TABLE} (id text PRIMARY KEY, workspace_id text NOT NULL, body json NOT NULL)`);
    await pushTable;
    const id = `art_${randomUUID()}`;
    await db.queryNamed(insert, [id, workspaceId, body]);
    return id;
  };
  const server = http.createServer((req, res) => {
    if (req.method === "POST" && req.url === "/p") {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        push(Buffer.concat(chunks).toString("utf8")).then(
          (id) => res.writeHead(201, { "content-type": "application/json" }).end(`{"artifactId":"${id}"}`),
          (error: unknown) => res.writeHead(500).end(String(error)),
        );
      });
      return;
    }
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
