import { OpenAiEmbeddings } from "../../src/embeddings/openai-embeddings";
import { startOpenAiCompatibleServer } from "../support/openai-compatible-server";

let server: Awaited<ReturnType<typeof startOpenAiCompatibleServer>>;
beforeEach(async () => {
  server = await startOpenAiCompatibleServer();
});
afterEach(() => server.close());

const provider = (options: { model?: string; timeoutMs?: number; maxRetries?: number } = {}) =>
  new OpenAiEmbeddings({ apiKey: "sk-test", baseURL: server.baseURL, ...options });

describe("OpenAiEmbeddings", () => {
  it("asks for text-embedding-3-small with 512 dimensions by default", async () => {
    const vectors = await provider().embed(["revenue by region"]);
    expect(server.requests[0]).toMatchObject({ model: "text-embedding-3-small", dimensions: 512, input: ["revenue by region"] });
    expect(vectors[0]).toHaveLength(512);
  });

  it("uses the configured model and records it in its model id", async () => {
    const embeddings = provider({ model: "text-embedding-3-large" });
    await embeddings.embed(["x"]);
    expect(server.requests[0]!.model).toBe("text-embedding-3-large");
    expect(embeddings.model).toBe("openai/text-embedding-3-large/512");
  });

  it("sends large inputs in batches and returns vectors in input order", async () => {
    const texts = Array.from({ length: 200 }, (_, i) => "t".repeat(i + 1));
    const vectors = await provider().embed(texts);
    expect(server.requests.map((r) => r.input.length)).toEqual([96, 96, 8]);
    expect(vectors).toHaveLength(200);
    const single = await provider().embed([texts[150]!]);
    expect(vectors[150]).toEqual(single[0]);
  });

  it("retries a server error and succeeds", async () => {
    server.failNext(500, 429);
    const vectors = await provider({ maxRetries: 3 }).embed(["retry me"]);
    expect(vectors).toHaveLength(1);
    expect(server.requests).toHaveLength(3);
  });

  it("rejects once its retries are spent", async () => {
    server.failNext(503, 503, 503);
    await expect(provider({ maxRetries: 2 }).embed(["x"])).rejects.toThrow();
    expect(server.requests).toHaveLength(3);
  });

  it("rejects when the server does not answer within the timeout", async () => {
    server.failNext("hang");
    const started = Date.now();
    await expect(provider({ timeoutMs: 300, maxRetries: 0 }).embed(["x"])).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("asks nothing for an empty list", async () => {
    expect(await provider().embed([])).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });
});
