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
    const env = { INDEXER: "worker", DATABASE_URL: "postgres://db/app", PUBLIC_BASE_URL: "https://wsi.example.com", SIGNING_SECRET: "s".repeat(32) };
    expect(loadConfig(env).indexer).toBe("worker");
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
    [{ DATABASE_POOL_SIZE: "0" }, "DATABASE_POOL_SIZE"],
    [{ DATABASE_POOL_SIZE: "many" }, "DATABASE_POOL_SIZE"],
    [{ TRUST_PROXY: "yes" }, "TRUST_PROXY"],
    [{ TRUST_PROXY: "10.0.0.0/33" }, "TRUST_PROXY"],
    [{ TRUST_PROXY: "loopback, router.internal" }, "TRUST_PROXY"],
    [{ INDEXER: "elsewhere" }, "INDEXER"],
    [{ INDEXER: "worker" }, "INDEXER"],
    [{ API_KEY_CACHE_TTL_MS: "-1" }, "API_KEY_CACHE_TTL_MS"],
    [{ TELEMETRY: "yes" }, "TELEMETRY"],
    [{ OTEL_TRACES_EXPORTER: "zipkin" }, "OTEL_TRACES_EXPORTER"],
    [{ OTEL_METRICS_EXPORTER: "otlp,statsd" }, "OTEL_METRICS_EXPORTER"],
    [{ OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" }, "OTEL_EXPORTER_OTLP_PROTOCOL"],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" }, "OTEL_EXPORTER_OTLP_ENDPOINT"],
    [{ OTEL_TRACES_SAMPLER: "sometimes" }, "OTEL_TRACES_SAMPLER"],
    [{ OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: "2" }, "OTEL_TRACES_SAMPLER_ARG"],
    [{ OTEL_TRACES_SAMPLER: "parentbased_traceidratio", OTEL_TRACES_SAMPLER_ARG: "-0.5" }, "OTEL_TRACES_SAMPLER_ARG"],
    [{ OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: "ten percent" }, "OTEL_TRACES_SAMPLER_ARG"],
    [{ HOST: "[::1]" }, "HOST"],
    [{ HOST: "0.0.0.0:3000" }, "HOST"],
    [{ HOST: "http://localhost" }, "HOST"],
    [{ OTEL_EXPORTER_PROMETHEUS_PORT: "0" }, "OTEL_EXPORTER_PROMETHEUS_PORT"],
    [{ METRICS_TOKEN: "short" }, "METRICS_TOKEN"],
    [{ TELEMETRY: "on", METRICS_TOKEN: "t".repeat(32) }, "METRICS_TOKEN"],
  ])("refuses %p naming %s", (env, variable) => {
    expect(() => loadConfig(env as NodeJS.ProcessEnv)).toThrow(ConfigError);
    expect(() => loadConfig(env as NodeJS.ProcessEnv)).toThrow(new RegExp(`^Invalid configuration:\\n  - ${variable}: `));
  });

  it("leaves telemetry off unless TELEMETRY=on, and off again with OTEL_SDK_DISABLED=true", () => {
    expect(loadConfig({}).telemetry).toMatchObject({ enabled: false, traces: { exporters: ["otlp"], protocol: "http/protobuf" }, metrics: { exporters: ["otlp"] } });
    expect(loadConfig({ TELEMETRY: "on" }).telemetry.enabled).toBe(true);
    expect(loadConfig({ TELEMETRY: "on", OTEL_SDK_DISABLED: "TRUE" }).telemetry.enabled).toBe(false);
    expect(loadConfig({ TELEMETRY: "on", OTEL_TRACES_EXPORTER: "none", OTEL_METRICS_EXPORTER: "none" }).telemetry.enabled).toBe(false);
  });

  it("reads OpenTelemetry's exporter lists, protocols and sampler", () => {
    const telemetry = loadConfig({
      TELEMETRY: "on",
      OTEL_METRICS_EXPORTER: "otlp, prometheus",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/protobuf",
      OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
      OTEL_TRACES_SAMPLER_ARG: "0.25",
      METRICS_TOKEN: "t".repeat(32),
    }).telemetry;
    expect(telemetry).toMatchObject({
      traces: { exporters: ["otlp"], protocol: "http/protobuf", sampleRatio: 0.25 },
      metrics: { exporters: ["otlp", "prometheus"], protocol: "http/json" },
      prometheus: { host: "localhost", port: 9464 },
      metricsToken: "t".repeat(32),
    });
  });

  it.each([
    ["always_on", 1],
    ["always_off", 1],
    ["traceidratio", 0.1],
    ["parentbased_always_on", 1],
    ["parentbased_always_off", 1],
    ["parentbased_traceidratio", 0.1],
  ])("accepts the specification's sampler %s, reading OTEL_TRACES_SAMPLER_ARG only for a ratio sampler", (sampler, ratio) => {
    expect(loadConfig({ TELEMETRY: "on", OTEL_TRACES_SAMPLER: sampler, OTEL_TRACES_SAMPLER_ARG: "0.1" }).telemetry.traces).toMatchObject({ sampler, sampleRatio: ratio });
  });

  it("reads sampler names regardless of case, and a ratio sampler without OTEL_TRACES_SAMPLER_ARG samples everything", () => {
    expect(loadConfig({ OTEL_TRACES_SAMPLER: " ALWAYS_ON " }).telemetry.traces.sampler).toBe("always_on");
    expect(loadConfig({ OTEL_TRACES_SAMPLER: "traceidratio" }).telemetry.traces).toMatchObject({ sampler: "traceidratio", sampleRatio: 1 });
    expect(loadConfig({}).telemetry.traces).toMatchObject({ sampler: "parentbased_always_on", sampleRatio: 1 });
  });

  it("ignores OTEL_TRACES_SAMPLER_ARG for a sampler that takes none, as the specification does", () => {
    expect(loadConfig({ OTEL_TRACES_SAMPLER: "always_on", OTEL_TRACES_SAMPLER_ARG: "endpoint=http://elsewhere" }).telemetry.traces.sampleRatio).toBe(1);
  });

  it.each(["jaeger_remote", "parentbased_jaeger_remote", "xray"])("refuses the remote or vendor sampler %s as not supported, naming the variable", (sampler) => {
    expect(() => loadConfig({ OTEL_TRACES_SAMPLER: sampler })).toThrow(new RegExp(`^Invalid configuration:\\n  - OTEL_TRACES_SAMPLER: ${sampler} is not supported here`));
  });

  it.each([
    [{}, "127.0.0.1"],
    [{ DYNO: "web.1" }, "0.0.0.0"],
    [{ DATABASE_URL: "postgres://db/app", PUBLIC_BASE_URL: "https://wsi.example.com", SIGNING_SECRET: "s".repeat(32) }, "0.0.0.0"],
    [{ DYNO: "web.1", HOST: "127.0.0.1" }, "127.0.0.1"],
    [{ HOST: "::" }, "::"],
    [{ HOST: "0.0.0.0" }, "0.0.0.0"],
    [{ HOST: "localhost" }, "localhost"],
  ])("listens, with %p, on %s", (env, host) => {
    expect(loadConfig(env as NodeJS.ProcessEnv).host).toBe(host);
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

describe("production settings with DATABASE_URL", () => {
  const production = {
    DATABASE_URL: "postgres://db.example/wsi",
    PUBLIC_BASE_URL: "https://wsi.example.com",
    SIGNING_SECRET: "s".repeat(32),
  };

  it("accepts a managed database with its public address and signing secret", () => {
    expect(loadConfig(production)).toMatchObject({ databaseUrl: production.DATABASE_URL, publicBaseUrl: production.PUBLIC_BASE_URL });
  });

  it("requires PUBLIC_BASE_URL", () => {
    expect(() => loadConfig({ ...production, PUBLIC_BASE_URL: "" })).toThrow(/PUBLIC_BASE_URL: is required when DATABASE_URL is set/);
  });

  it("requires SIGNING_SECRET while files are served from the database", () => {
    expect(() => loadConfig({ ...production, SIGNING_SECRET: "" })).toThrow(/SIGNING_SECRET: is required when DATABASE_URL is set and FILE_STORAGE=database/);
  });

  it("does not require SIGNING_SECRET when S3 serves the files", () => {
    expect(loadConfig({ ...production, SIGNING_SECRET: "", FILE_STORAGE: "s3", S3_BUCKET: "skills" }).signingSecret).toBeUndefined();
  });

  it("requires neither on the embedded database", () => {
    expect(loadConfig({})).toMatchObject({ publicBaseUrl: undefined, signingSecret: undefined });
  });

  it("sizes the pool at 5 connections per process unless DATABASE_POOL_SIZE says otherwise", () => {
    expect(loadConfig(production).databasePoolSize).toBe(5);
    expect(loadConfig({ ...production, DATABASE_POOL_SIZE: "12" }).databasePoolSize).toBe(12);
  });

  it("answers 503 after 2 s without a database connection unless DATABASE_CONNECT_TIMEOUT_MS says otherwise", () => {
    expect(loadConfig(production).databaseConnectTimeoutMs).toBe(2_000);
    expect(loadConfig({ ...production, DATABASE_CONNECT_TIMEOUT_MS: "5000" }).databaseConnectTimeoutMs).toBe(5_000);
    for (const value of ["0", "soon", "1.5"]) expect(() => loadConfig({ ...production, DATABASE_CONNECT_TIMEOUT_MS: value })).toThrow(/DATABASE_CONNECT_TIMEOUT_MS/);
  });

  it("lets a vector index build raise maintenance_work_mem to 256 MB unless INDEX_BUILD_MEMORY_MB says otherwise", () => {
    expect(loadConfig({}).indexBuildMemoryMb).toBe(256);
    expect(loadConfig({ INDEX_BUILD_MEMORY_MB: "1024" }).indexBuildMemoryMb).toBe(1024);
    for (const value of ["8", "lots", "1.5"]) expect(() => loadConfig({ INDEX_BUILD_MEMORY_MB: value })).toThrow(/INDEX_BUILD_MEMORY_MB/);
  });

  it.each([
    [undefined, false],
    ["false", false],
    ["true", true],
    ["1", 1],
    ["loopback, 10.0.0.0/8", "loopback, 10.0.0.0/8"],
    ["::1", "::1"],
  ])("reads TRUST_PROXY=%p as Express's trust proxy %p", (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });
});
