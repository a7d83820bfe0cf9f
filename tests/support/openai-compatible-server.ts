import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface EmbeddingsRequest {
  model: string;
  input: string[];
  dimensions?: number;
}

/**
 * A small OpenAI-compatible embeddings server on loopback: deterministic vectors derived from the
 * text, every request recorded, and failures to order (status codes, or no answer at all). Like
 * OpenAI, it refuses a whole request with 400 when one of its inputs is one it cannot take (here:
 * the texts `refuses` picks, standing for an over-long or malformed input).
 */
export async function startOpenAiCompatibleServer() {
  const requests: EmbeddingsRequest[] = [];
  const failures: Array<number | "hang"> = [];
  const refused: { refuses: (text: string) => boolean } = { refuses: () => false };
  const server: Server = createServer(async (req, res) => {
    const body = JSON.parse(await readBody(req)) as EmbeddingsRequest;
    requests.push(body);
    const failure = failures.shift();
    if (failure === "hang") return;
    if (failure !== undefined) {
      res.writeHead(failure, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "induced" } }));
      return;
    }
    if (body.input.some((text) => refused.refuses(text))) {
      const message = "This model's maximum context length is 8192 tokens, however you requested more. Please reduce your prompt.";
      res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: { message, type: "invalid_request_error" } }));
      return;
    }
    const dimensions = body.dimensions ?? 1536;
    const data = body.input.map((text, index) => ({ object: "embedding", index, embedding: vectorFor(text, dimensions) }));
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({ object: "list", data: data.reverse(), model: body.model, usage: { prompt_tokens: 1, total_tokens: 1 } }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    failNext: (...outcomes: Array<number | "hang">) => failures.push(...outcomes),
    refuseInputs: (refuses: (text: string) => boolean) => (refused.refuses = refuses),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function vectorFor(text: string, dimensions: number): number[] {
  const vector = Array.from({ length: dimensions }, (_, i) => Math.sin((text.length + 1) * (i + 1)));
  const norm = Math.hypot(...vector);
  return vector.map((value) => value / norm);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = "";
    req.on("data", (chunk) => (body += String(chunk)));
    req.on("end", () => resolve(body));
  });
}
