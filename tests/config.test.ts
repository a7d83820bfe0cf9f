import { ConfigError, loadConfig } from "../src/config";

describe("loadConfig", () => {
  it("uses the documented defaults for an empty environment", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
      dataDir: "./.data",
      adminToken: undefined,
      embeddings: { provider: "local" },
      fileStorage: { kind: "database" },
      downloadUrlTtlSeconds: 300,
      indexer: "in-process",
      apiKeyCacheTtlMs: 5_000,
    });
  });

  it("lets worker processes index a PostgreSQL deployment", () => {
    expect(loadConfig({ INDEXER: "worker", DATABASE_URL: "postgres://db/app" }).indexer).toBe("worker");
  });

  it("treats blank values as unset", () => {
    expect(loadConfig({ PORT: "", DATABASE_URL: " " })).toMatchObject({ port: 3000, databaseUrl: undefined });
  });

  it.each([
    [{ PORT: "http" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL"],
    [{ ADMIN_TOKEN: "short" }, "ADMIN_TOKEN"],
    [{ EMBEDDINGS_PROVIDER: "cohere" }, "EMBEDDINGS_PROVIDER"],
    [{ EMBEDDINGS_PROVIDER: "openai" }, "OPENAI_API_KEY"],
    [{ OPENAI_BASE_URL: "not a url" }, "OPENAI_BASE_URL"],
    [{ FILE_STORAGE: "s3" }, "S3_BUCKET"],
    [{ SIGNING_SECRET: "too-short" }, "SIGNING_SECRET"],
    [{ DOWNLOAD_URL_TTL_SECONDS: "5" }, "DOWNLOAD_URL_TTL_SECONDS"],
    [{ DOWNLOAD_URL_TTL_SECONDS: "one hour" }, "DOWNLOAD_URL_TTL_SECONDS"],
    [{ INDEXER: "elsewhere" }, "INDEXER"],
    [{ INDEXER: "worker" }, "INDEXER"],
    [{ API_KEY_CACHE_TTL_MS: "-1" }, "API_KEY_CACHE_TTL_MS"],
  ])("refuses %p naming %s", (env, variable) => {
    expect(() => loadConfig(env as NodeJS.ProcessEnv)).toThrow(ConfigError);
    expect(() => loadConfig(env as NodeJS.ProcessEnv)).toThrow(new RegExp(`^Invalid configuration:\\n  - ${variable}: `));
  });

  it("lists every problem at once", () => {
    try {
      loadConfig({ PORT: "x", FILE_STORAGE: "disk" });
      throw new Error("expected a ConfigError");
    } catch (error) {
      expect((error as ConfigError).problems).toHaveLength(2);
    }
  });
});
