import { isIP } from "node:net";
import { DEFAULT_QUERY_VECTOR_CACHE_ENTRIES } from "./search/query-vector-cache";
import { z } from "zod";
import { QUERY_BUDGET_MS } from "./embeddings/embeddings-provider";

const blankToUndefined = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);
const optionalText = z.preprocess(blankToUndefined, z.string().optional());
const optionalUrl = z.preprocess(blankToUndefined, z.url().optional());

/** The contract's "time-limited" download address of a skill file: five minutes unless configured. */
export const DEFAULT_DOWNLOAD_URL_TTL_SECONDS = 300;

/**
 * Connections per process. Small managed plans allow 20 connections in all (Heroku's Essential
 * plans): two web processes and a worker at 5 each leave room for the release phase and a one-off
 * admin command. See docs/deployment.md for larger plans.
 */
export const DEFAULT_DATABASE_POOL_SIZE = 5;
/** How long a request waits for a connection to DATABASE_URL (a new one, or a free one of the pool) before it is answered 503. */
export const DEFAULT_DATABASE_CONNECT_TIMEOUT_MS = 2_000;
/** A request's statement longer than this is ended and answered 503: a Citus worker that hangs holds no connection longer. */
export const DEFAULT_DATABASE_STATEMENT_TIMEOUT_MS = 1_500;

/**
 * The most `maintenance_work_mem` one build of a workspace's own vector index raises its session
 * to (it asks only what pgvector's k-means needs for its lists). 256 MB holds the 800 lists of a
 * 200,000-vector workspace (168 MB) and up to about 1,000 lists; larger workspaces get fewer,
 * longer lists. One build runs at a time per process, so this is the most one build adds to the
 * database server's memory: an eighth of a 2 GB plan.
 */
export const DEFAULT_INDEX_BUILD_MEMORY_MB = 256;

// Express's `trust proxy`: addresses it names are proxies whose X-Forwarded-* headers are believed.
const TRUST_PROXY_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);
const isProxyAddress = (entry: string) => {
  if (TRUST_PROXY_NAMES.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split("/");
  const family = isIP(address ?? "");
  if (family === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
};
const TrustProxy = z.preprocess(
  blankToUndefined,
  z
    .string()
    .default("false")
    .refine(
      (text) =>
        text === "true" ||
        text === "false" ||
        /^\d+$/.test(text) ||
        text.split(",").every((entry) => isProxyAddress(entry.trim())),
      "must be false, true, a number of proxy hops (1 behind one router), or a comma-separated list of proxy addresses, subnets or loopback/linklocal/uniquelocal",
    )
    .transform((text): boolean | number | string =>
      text === "true" ? true : text === "false" ? false : /^\d+$/.test(text) ? Number(text) : text,
    ),
);

/** OpenTelemetry's exporter lists (OTEL_TRACES_EXPORTER, OTEL_METRICS_EXPORTER): comma-separated, `none` for nothing. */
function exporterList<const Names extends readonly [string, ...string[]]>(names: Names) {
  const allowed = new Set<string>([...names, "none"]);
  return z.preprocess(
    blankToUndefined,
    z
      .string()
      .default("otlp")
      .transform((text) => text.split(",").map((name) => name.trim().toLowerCase()).filter((name) => name !== ""))
      .refine((list) => list.every((name) => allowed.has(name)), `must be a comma-separated list of ${[...names, "none"].join(", ")}`)
      .transform((list) => [...new Set(list.filter((name) => name !== "none"))] as Array<Names[number]>),
  );
}

// OTLP over HTTP only: gRPC would bring a second transport stack (@grpc/grpc-js) for what port 4318 already carries.
const OtlpProtocol = z.preprocess(
  blankToUndefined,
  z.enum(["http/protobuf", "http/json"], { error: "must be http/protobuf or http/json (gRPC is not bundled: use the collector's OTLP/HTTP port, 4318)" }).optional(),
);

// The OTLP/HTTP exporters send to an http(s) address (`http://collector:4318`).
const OtlpEndpoint = z.preprocess(blankToUndefined, z.url({ protocol: /^https?$/, error: "must be an http(s) URL, e.g. http://localhost:4318" }).optional());

// OTEL_TRACES_SAMPLER's values in the OpenTelemetry specification; the remote and vendor samplers need components not bundled here.
const TRACES_SAMPLERS = ["always_on", "always_off", "traceidratio", "parentbased_always_on", "parentbased_always_off", "parentbased_traceidratio"] as const;
const UNBUNDLED_SAMPLERS = new Set(["jaeger_remote", "parentbased_jaeger_remote", "xray"]);
export type TracesSamplerName = (typeof TRACES_SAMPLERS)[number];
const TracesSampler = z.preprocess(
  (value) => (typeof value === "string" ? (value.trim() === "" ? undefined : value.trim().toLowerCase()) : value),
  z
    .string()
    .default("parentbased_always_on")
    .superRefine((name, ctx) => {
      if ((TRACES_SAMPLERS as readonly string[]).includes(name)) return;
      ctx.addIssue({
        code: "custom",
        message: UNBUNDLED_SAMPLERS.has(name)
          ? `${name} is not supported here (it needs a sampler component this service does not bundle); use one of ${TRACES_SAMPLERS.join(", ")}`
          : `must be one of ${TRACES_SAMPLERS.join(", ")}`,
      });
    })
    .transform((name) => name as TracesSamplerName),
);

// The interface to listen on: an IP address or a host name (no brackets around an IPv6 address).
const ListenHost = z.preprocess(
  blankToUndefined,
  z
    .string()
    .trim()
    .refine((text) => isIP(text) !== 0 || /^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/.test(text), "must be an IP address (e.g. 127.0.0.1, 0.0.0.0, ::) or a host name, without brackets or port")
    .optional(),
);

const DatabaseUrl = z.preprocess(
  blankToUndefined,
  z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// connection string")
    .optional(),
);

const EnvSchema = z
  .object({
    PORT: z.preprocess(blankToUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
    HOST: ListenHost,
    // Set by Heroku in every dyno; its router reaches the dyno on its own interface, not on loopback.
    DYNO: optionalText,
    DATABASE_URL: DatabaseUrl,
    DATABASE_POOL_SIZE: z.preprocess(
      blankToUndefined,
      z.coerce.number().int().min(1).max(500).default(DEFAULT_DATABASE_POOL_SIZE),
    ),
    DATABASE_CONNECT_TIMEOUT_MS: z.preprocess(
      blankToUndefined,
      z.coerce.number().int().min(100).max(600_000).default(DEFAULT_DATABASE_CONNECT_TIMEOUT_MS),
    ),
    DATABASE_STATEMENT_TIMEOUT_MS: z.preprocess(
      blankToUndefined,
      z.coerce.number().int().min(100).max(3_600_000).default(DEFAULT_DATABASE_STATEMENT_TIMEOUT_MS),
    ),
    TRUST_PROXY: TrustProxy,
    DATA_DIR: z.preprocess(blankToUndefined, z.string().default("./.data")),
    ADMIN_TOKEN: z.preprocess(
      blankToUndefined,
      z.string().min(16, "must be at least 16 characters so that it cannot be guessed").optional(),
    ),
    EMBEDDINGS_PROVIDER: z.preprocess(blankToUndefined, z.enum(["local", "openai"]).default("local")),
    OPENAI_API_KEY: optionalText,
    OPENAI_BASE_URL: optionalUrl,
    EMBEDDINGS_MODEL: optionalText,
    // Local model threads for index work (at the lowest CPU priority); default: one per core, at most 2.
    EMBEDDINGS_INDEX_THREADS: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).max(16).optional()),
    // How long a search waits for its query's vector before it answers by words alone (docs/search.md).
    EMBEDDINGS_QUERY_BUDGET_MS: z.preprocess(blankToUndefined, z.coerce.number().int().min(0).max(10_000).default(QUERY_BUDGET_MS)),
    PUBLIC_BASE_URL: optionalUrl,
    SIGNING_SECRET: z.preprocess(blankToUndefined, z.string().min(32, "must be at least 32 characters").optional()),
    // S3 presigned URLs live at most 7 days.
    DOWNLOAD_URL_TTL_SECONDS: z.preprocess(
      blankToUndefined,
      z.coerce.number().int().min(10).max(604_800).default(DEFAULT_DOWNLOAD_URL_TTL_SECONDS),
    ),
    FILE_STORAGE: z.preprocess(blankToUndefined, z.enum(["database", "s3"]).default("database")),
    S3_BUCKET: optionalText,
    S3_REGION: optionalText,
    S3_ENDPOINT: optionalUrl,
    S3_ACCESS_KEY_ID: optionalText,
    S3_SECRET_ACCESS_KEY: optionalText,
    S3_FORCE_PATH_STYLE: z.preprocess(blankToUndefined, z.enum(["true", "false"]).default("false")),
    // How long a process trusts an API key it looked up; a revoke through another process takes effect within it.
    API_KEY_CACHE_TTL_MS: z.preprocess(blankToUndefined, z.coerce.number().int().min(0).max(60_000).default(5_000)),
    // Query vectors kept per process (src/search/query-vector-cache.ts); 0 keeps none.
    QUERY_EMBEDDING_CACHE_ENTRIES: z.preprocess(blankToUndefined, z.coerce.number().int().min(0).max(100_000).default(DEFAULT_QUERY_VECTOR_CACHE_ENTRIES)),
    // Where the embedding indexer runs: in the web process, or only in `worker` processes.
    INDEXER: z.preprocess(blankToUndefined, z.enum(["in-process", "worker"]).default("in-process")),
    INDEX_BUILD_MEMORY_MB: z.preprocess(blankToUndefined, z.coerce.number().int().min(16).max(65_536).default(DEFAULT_INDEX_BUILD_MEMORY_MB)),
    RATE_LIMIT_WINDOW_SECONDS: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).max(86_400).default(60)),
    RATE_LIMIT_PER_KEY: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).default(600)),
    RATE_LIMIT_PER_ADDRESS: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).default(120)),
    RATE_LIMIT_SIGN_IN: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).default(10)),
    RATE_LIMIT_AUTH_FAILURES: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).default(30)),
    // OAuth dynamic client registrations per client address and hour, and registered clients in all.
    RATE_LIMIT_CLIENT_REGISTRATIONS: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).default(20)),
    OAUTH_MAX_CLIENTS: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).default(10_000)),
    // A CA certificate file (PEM) also trusted for Client ID Metadata Documents served inside a private network.
    OAUTH_CLIENT_METADATA_CA_FILE: optionalText,
    // Telemetry (docs/operations.md): off unless TELEMETRY=on; the rest are OpenTelemetry's standard variables.
    TELEMETRY: z.preprocess(blankToUndefined, z.enum(["off", "on"]).default("off")),
    OTEL_SDK_DISABLED: z.preprocess(
      (value) => (typeof value === "string" ? (value.trim() === "" ? undefined : value.trim().toLowerCase()) : value),
      z.enum(["true", "false"]).default("false"),
    ),
    OTEL_SERVICE_NAME: optionalText,
    OTEL_TRACES_EXPORTER: exporterList(["otlp", "console"]),
    OTEL_METRICS_EXPORTER: exporterList(["otlp", "prometheus", "console"]),
    OTEL_TRACES_SAMPLER: TracesSampler,
    // A string whose meaning depends on the sampler; checked below, for the samplers that take a ratio.
    OTEL_TRACES_SAMPLER_ARG: optionalText,
    OTEL_EXPORTER_OTLP_PROTOCOL: OtlpProtocol,
    OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: OtlpProtocol,
    OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: OtlpProtocol,
    // Read by the exporters themselves; checked here so that a typo stops the start naming the variable.
    OTEL_EXPORTER_OTLP_ENDPOINT: OtlpEndpoint,
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: OtlpEndpoint,
    OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: OtlpEndpoint,
    OTEL_EXPORTER_PROMETHEUS_HOST: z.preprocess(blankToUndefined, z.string().default("localhost")),
    OTEL_EXPORTER_PROMETHEUS_PORT: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).max(65535).default(9464)),
    // Serves the Prometheus text at GET /metrics on PORT too, to this bearer token (platforms that route one port).
    METRICS_TOKEN: z.preprocess(blankToUndefined, z.string().min(32, "must be at least 32 characters").optional()),
    LOG_LEVEL: z.preprocess(
      blankToUndefined,
      z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    ),
    // `on` (npm run dev) also parses every answer through its contract schema (src/http/json-answer.ts).
    CHECK_RESPONSES: z.preprocess(blankToUndefined, z.enum(["off", "on"]).default("off")),
  })
  .superRefine((env, ctx) => {
    if (env.EMBEDDINGS_PROVIDER === "openai" && !env.OPENAI_API_KEY) {
      ctx.addIssue({ code: "custom", path: ["OPENAI_API_KEY"], message: "is required when EMBEDDINGS_PROVIDER=openai" });
    }
    if (env.INDEXER === "worker" && !env.DATABASE_URL) {
      ctx.addIssue({
        code: "custom",
        path: ["INDEXER"],
        message: "worker needs DATABASE_URL: the embedded database belongs to one process, which runs the indexer itself",
      });
    }
    if (env.FILE_STORAGE === "s3" && !env.S3_BUCKET) {
      ctx.addIssue({ code: "custom", path: ["S3_BUCKET"], message: "is required when FILE_STORAGE=s3" });
    }
    // A managed database means several processes and restarts: links must outlive both, and
    // name the public address rather than whatever Host a request came with.
    if (env.DATABASE_URL && !env.PUBLIC_BASE_URL) {
      ctx.addIssue({ code: "custom", path: ["PUBLIC_BASE_URL"], message: "is required when DATABASE_URL is set" });
    }
    if (env.OTEL_TRACES_SAMPLER.endsWith("traceidratio") && env.OTEL_TRACES_SAMPLER_ARG !== undefined && samplingRatio(env.OTEL_TRACES_SAMPLER_ARG) === undefined) {
      ctx.addIssue({ code: "custom", path: ["OTEL_TRACES_SAMPLER_ARG"], message: `must be a sampling probability from 0 to 1 (e.g. 0.25) for ${env.OTEL_TRACES_SAMPLER}` });
    }
    if (env.TELEMETRY === "on" && env.METRICS_TOKEN && !env.OTEL_METRICS_EXPORTER.includes("prometheus")) {
      ctx.addIssue({ code: "custom", path: ["METRICS_TOKEN"], message: "serves Prometheus text: add prometheus to OTEL_METRICS_EXPORTER, or unset it" });
    }
    if (env.DATABASE_URL && env.FILE_STORAGE === "database" && !env.SIGNING_SECRET) {
      ctx.addIssue({
        code: "custom",
        path: ["SIGNING_SECRET"],
        message: "is required when DATABASE_URL is set and FILE_STORAGE=database, so download links work across processes and restarts",
      });
    }
  });

export type Env = z.infer<typeof EnvSchema>;

/** OTEL_TRACES_SAMPLER_ARG as a probability, or undefined when it is not a number from 0 to 1. */
function samplingRatio(text: string): number | undefined {
  const ratio = Number(text.trim());
  return text.trim() !== "" && Number.isFinite(ratio) && ratio >= 0 && ratio <= 1 ? ratio : undefined;
}

/**
 * The interface to listen on unless HOST says: every interface on a Heroku dyno (DYNO) or with a
 * managed database (DATABASE_URL: a deployment, where a router or a container's port mapping reaches
 * the process from outside), else loopback only, so that a developer's server is not on the office network.
 */
export function defaultListenHost(env: { DYNO?: string; DATABASE_URL?: string }): string {
  return env.DYNO || env.DATABASE_URL ? "0.0.0.0" : "127.0.0.1";
}

/** OpenTelemetry (docs/operations.md). With `enabled` false the SDK is never loaded. */
export interface TelemetrySettings {
  enabled: boolean;
  /** OTEL_SERVICE_NAME; unset: the process type's own name. */
  serviceName: string | undefined;
  /** OTEL_TRACES_SAMPLER, and the ratio of the traceidratio samplers (OTEL_TRACES_SAMPLER_ARG, default 1). */
  traces: { exporters: Env["OTEL_TRACES_EXPORTER"]; protocol: "http/protobuf" | "http/json"; sampler: TracesSamplerName; sampleRatio: number };
  metrics: { exporters: Env["OTEL_METRICS_EXPORTER"]; protocol: "http/protobuf" | "http/json" };
  /** Where the Prometheus exporter listens when OTEL_METRICS_EXPORTER names prometheus. */
  prometheus: { host: string; port: number };
  /** With it, GET /metrics on the web port answers this bearer token too. */
  metricsToken: string | undefined;
}

export interface Config {
  port: number;
  /** The interface the web server listens on (HOST; default: defaultListenHost). */
  host: string;
  databaseUrl: string | undefined;
  /** Most connections one process opens to DATABASE_URL. */
  databasePoolSize: number;
  /** How long a request waits for a connection to DATABASE_URL before it fails as unavailable (503). */
  databaseConnectTimeoutMs: number;
  /** How long a web process's statement may run before it is ended and answered 503 (index builds and the long admin transactions set their own). */
  databaseStatementTimeoutMs: number;
  /** Express's `trust proxy` setting: false, true, a hop count, or addresses of trusted proxies. */
  trustProxy: boolean | number | string;
  dataDir: string;
  adminToken: string | undefined;
  embeddings: { provider: "local" | "openai"; model: string | undefined; openaiApiKey?: string; openaiBaseUrl?: string; indexThreads?: number; queryBudgetMs?: number };
  publicBaseUrl: string | undefined;
  signingSecret: string | undefined;
  /** How long a skill file's download URL works. */
  downloadUrlTtlSeconds: number;
  fileStorage:
    | { kind: "database" }
    | {
        kind: "s3";
        bucket: string;
        region?: string;
        endpoint?: string;
        accessKeyId?: string;
        secretAccessKey?: string;
        forcePathStyle: boolean;
      };
  logLevel: Env["LOG_LEVEL"];
  /** Also parse every answer through its contract schema and compare with what is sent (CHECK_RESPONSES). */
  checkResponses: boolean;
  /** `in-process`: the web process runs the embedding indexer; `worker`: only `node dist/worker.js` does. */
  indexer: Env["INDEXER"];
  /** The most maintenance_work_mem a build of a workspace's own vector index may use (INDEX_BUILD_MEMORY_MB). */
  indexBuildMemoryMb: number;
  /** How long an authenticated API key is trusted without a database lookup (0: never). */
  apiKeyCacheTtlMs: number;
  /** How many query vectors a process keeps for searches that ask again (0: none). */
  queryEmbeddingCacheEntries: number;
  rateLimits: { windowSeconds: number; perKey: number; perAddress: number; signIn: number; authFailures: number; registrations: number };
  /** Most OAuth clients registered at once; registration answers 503 beyond it. */
  oauthMaxClients: number;
  /** Path of a CA (PEM) also trusted for Client ID Metadata Documents. */
  oauthClientMetadataCaFile: string | undefined;
  telemetry: TelemetrySettings;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** Reads and checks every setting at once, so a bad deployment fails at start with all its problems named. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`));
  }
  const env = parsed.data;
  return {
    port: env.PORT,
    host: env.HOST ?? defaultListenHost(env),
    databaseUrl: env.DATABASE_URL,
    databasePoolSize: env.DATABASE_POOL_SIZE,
    databaseConnectTimeoutMs: env.DATABASE_CONNECT_TIMEOUT_MS,
    databaseStatementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
    trustProxy: env.TRUST_PROXY,
    dataDir: env.DATA_DIR,
    adminToken: env.ADMIN_TOKEN,
    embeddings: {
      provider: env.EMBEDDINGS_PROVIDER,
      model: env.EMBEDDINGS_MODEL,
      openaiApiKey: env.OPENAI_API_KEY,
      openaiBaseUrl: env.OPENAI_BASE_URL,
      indexThreads: env.EMBEDDINGS_INDEX_THREADS,
      queryBudgetMs: env.EMBEDDINGS_QUERY_BUDGET_MS,
    },
    publicBaseUrl: env.PUBLIC_BASE_URL,
    signingSecret: env.SIGNING_SECRET,
    downloadUrlTtlSeconds: env.DOWNLOAD_URL_TTL_SECONDS,
    fileStorage:
      env.FILE_STORAGE === "s3"
        ? {
            kind: "s3",
            bucket: env.S3_BUCKET as string,
            region: env.S3_REGION,
            endpoint: env.S3_ENDPOINT,
            accessKeyId: env.S3_ACCESS_KEY_ID,
            secretAccessKey: env.S3_SECRET_ACCESS_KEY,
            forcePathStyle: env.S3_FORCE_PATH_STYLE === "true",
          }
        : { kind: "database" },
    logLevel: env.LOG_LEVEL,
    checkResponses: env.CHECK_RESPONSES === "on",
    indexer: env.INDEXER,
    indexBuildMemoryMb: env.INDEX_BUILD_MEMORY_MB,
    apiKeyCacheTtlMs: env.API_KEY_CACHE_TTL_MS,
    queryEmbeddingCacheEntries: env.QUERY_EMBEDDING_CACHE_ENTRIES,
    rateLimits: {
      windowSeconds: env.RATE_LIMIT_WINDOW_SECONDS,
      perKey: env.RATE_LIMIT_PER_KEY,
      perAddress: env.RATE_LIMIT_PER_ADDRESS,
      signIn: env.RATE_LIMIT_SIGN_IN,
      authFailures: env.RATE_LIMIT_AUTH_FAILURES,
      registrations: env.RATE_LIMIT_CLIENT_REGISTRATIONS,
    },
    oauthMaxClients: env.OAUTH_MAX_CLIENTS,
    oauthClientMetadataCaFile: env.OAUTH_CLIENT_METADATA_CA_FILE,
    telemetry: telemetrySettings(env),
  };
}

function telemetrySettings(env: Env): TelemetrySettings {
  const traces = env.OTEL_TRACES_EXPORTER;
  const metrics = env.OTEL_METRICS_EXPORTER;
  const protocol = env.OTEL_EXPORTER_OTLP_PROTOCOL ?? "http/protobuf";
  return {
    enabled: env.TELEMETRY === "on" && env.OTEL_SDK_DISABLED !== "true" && traces.length + metrics.length > 0,
    serviceName: env.OTEL_SERVICE_NAME,
    traces: {
      exporters: traces,
      protocol: env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? protocol,
      sampler: env.OTEL_TRACES_SAMPLER,
      sampleRatio: env.OTEL_TRACES_SAMPLER.endsWith("traceidratio") && env.OTEL_TRACES_SAMPLER_ARG !== undefined ? samplingRatio(env.OTEL_TRACES_SAMPLER_ARG)! : 1,
    },
    metrics: { exporters: metrics, protocol: env.OTEL_EXPORTER_OTLP_METRICS_PROTOCOL ?? protocol },
    prometheus: { host: env.OTEL_EXPORTER_PROMETHEUS_HOST, port: env.OTEL_EXPORTER_PROMETHEUS_PORT },
    metricsToken: env.METRICS_TOKEN,
  };
}

/** DATABASE_URL alone, for `npm run migrate`, which needs none of the web process's settings. */
export function loadDatabaseUrl(source: NodeJS.ProcessEnv = process.env): string | undefined {
  const parsed = DatabaseUrl.safeParse(source.DATABASE_URL);
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((issue) => `DATABASE_URL: ${issue.message}`));
  return parsed.data;
}

const McpStdioEnvSchema = z.object({
  WSI_BASE_URL: z.preprocess(
    blankToUndefined,
    z.url({ protocol: /^https?$/, error: "must be an http(s) URL, e.g. http://localhost:3000" }).default("http://localhost:3000"),
  ),
  WSI_API_KEY: z.preprocess(
    blankToUndefined,
    z.string({ error: "is required: the workspace API key (wsi_…) the MCP tools act with" }).min(1),
  ),
});

/** Settings of the stdio command (`node dist/mcp/stdio.js`), the bridge to a running service's /mcp. */
export interface McpStdioConfig {
  baseUrl: string;
  apiKey: string;
}

export function loadMcpStdioConfig(source: NodeJS.ProcessEnv = process.env): McpStdioConfig {
  const parsed = McpStdioEnvSchema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`));
  }
  return { baseUrl: parsed.data.WSI_BASE_URL, apiKey: parsed.data.WSI_API_KEY };
}
