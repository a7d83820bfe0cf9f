import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Db } from "../src/db/database";
import { toVectorLiteral, type EmbeddingsProvider } from "../src/embeddings/embeddings-provider";

// The floor: a bare node:http handler over the same database engine (through the same driver),
// with no framework, no authentication and no response schema. Fetch reads one row by id; search
// embeds the query on the same model lane and reads the nearest rows' summaries.

export async function startFloorServer(db: Db, embeddings: EmbeddingsProvider, workspaceId: string) {
  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url!, "http://floor");
      let body: unknown;
      if (url.pathname.startsWith("/artifacts/")) {
        [body] = await db.$queryRawUnsafe<unknown[]>(
          "SELECT id, summary, why, confidence, content, created_at FROM artifacts WHERE id = $1 AND workspace_id = $2 AND status = 'validated'",
          url.pathname.slice("/artifacts/".length),
          workspaceId,
        );
      } else {
        const vector = toVectorLiteral(await embeddings.embedQuery(url.searchParams.get("query") ?? ""));
        body = await db.$queryRawUnsafe(
          `SELECT a.id, a.summary, a.why FROM artifacts a WHERE a.id IN (
             SELECT artifact_id FROM artifact_embeddings WHERE workspace_id = $1 AND model = $2
             ORDER BY embedding <=> $3::halfvec LIMIT 20)`,
          workspaceId,
          embeddings.model,
          vector,
        );
      }
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    } catch (error) {
      res.writeHead(500).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}
