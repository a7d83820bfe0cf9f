import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { LocalEmbeddings } from "../src/embeddings/local-embeddings";

// Stands in for OpenAI's embeddings API in the footprint bench, which has no network: a process of
// its own answering `POST /v1/embeddings` in OpenAI's shape with real vectors of the project's local
// model, so that a service started with EMBEDDINGS_PROVIDER=openai holds no model at all and its
// searches still rank by meaning. Bench-only: the service knows nothing of it.
//
// What src/embeddings/openai-embeddings.ts sends: `model` (EMBEDDINGS_MODEL, by default
// text-embedding-3-small), `input` (an array of texts, at most 96), `dimensions: 512` and
// `encoding_format: "float"`. A request of one text is a query (the service's query client, with its
// 1.5 s timeout): it goes to the model's query thread, so that it never waits behind index batches,
// as it would not at OpenAI.
//
// Run: `node --import tsx bench/openai-compatible-embeddings.ts`; prints `listening on <port>`.

interface EmbeddingsRequest {
  model?: string;
  input?: string | string[];
  dimensions?: number;
  encoding_format?: string;
}

const model = new LocalEmbeddings();

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let body = "";
    req.on("data", (chunk) => (body += String(chunk)));
    req.on("end", () => resolve(body));
    req.on("error", reject);
  });

const answer = (status: number, body: unknown) => ({ status, body: JSON.stringify(body) });
const refuse = (status: number, message: string) => answer(status, { error: { message, type: "invalid_request_error" } });

async function embeddings(request: EmbeddingsRequest) {
  const texts = typeof request.input === "string" ? [request.input] : request.input;
  if (!Array.isArray(texts) || texts.length === 0 || !texts.every((text) => typeof text === "string" && text.length > 0)) {
    return refuse(400, "input must be a non-empty string or array of non-empty strings");
  }
  if (request.dimensions !== undefined && request.dimensions !== 512) {
    return refuse(400, `this server makes 512-dimensional vectors, not ${request.dimensions}`);
  }
  const vectors = texts.length === 1 ? [await model.embedQuery(texts[0]!)] : await model.embed(texts);
  return answer(200, {
    object: "list",
    data: vectors.map((embedding, index) => ({ object: "embedding", index, embedding })),
    model: request.model ?? "text-embedding-3-small",
    usage: { prompt_tokens: 0, total_tokens: 0 },
  });
}

const server = createServer(async (req, res) => {
  let reply: { status: number; body: string };
  try {
    if (req.method !== "POST" || req.url !== "/v1/embeddings") reply = refuse(404, `no route ${req.method} ${req.url}`);
    else reply = await embeddings(JSON.parse(await readBody(req)) as EmbeddingsRequest);
  } catch (error) {
    reply = answer(500, { error: { message: error instanceof Error ? error.message : String(error), type: "server_error" } });
  }
  res.writeHead(reply.status, { "content-type": "application/json" }).end(reply.body);
});

server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  console.log(`listening on ${(server.address() as AddressInfo).port}`);
});
process.on("SIGTERM", () => {
  server.close();
  void model.close().then(() => process.exit(0));
});
