import { z } from "zod";

const blankToUndefined = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);
const optionalText = z.preprocess(blankToUndefined, z.string().optional());
const optionalUrl = z.preprocess(blankToUndefined, z.url().optional());

/** The contract's "time-limited" download address of a skill file: five minutes unless configured. */
export const DEFAULT_DOWNLOAD_URL_TTL_SECONDS = 300;

const EnvSchema = z
  .object({
    PORT: z.preprocess(blankToUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
    DATABASE_URL: z.preprocess(
      blankToUndefined,
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// connection string")
        .optional(),
    ),
    DATA_DIR: z.preprocess(blankToUndefined, z.string().default("./.data")),
    ADMIN_TOKEN: z.preprocess(
      blankToUndefined,
      z.string().min(16, "must be at least 16 characters so that it cannot be guessed").optional(),
    ),
    EMBEDDINGS_PROVIDER: z.preprocess(blankToUndefined, z.enum(["local", "openai"]).default("local")),
    OPENAI_API_KEY: optionalText,
    OPENAI_BASE_URL: optionalUrl,
    EMBEDDINGS_MODEL: optionalText,
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
    RATE_LIMIT_WINDOW_SECONDS: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).max(86_400).default(60)),
    RATE_LIMIT_PER_KEY: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).default(600)),
    RATE_LIMIT_PER_ADDRESS: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).default(120)),
    LOG_LEVEL: z.preprocess(
      blankToUndefined,
      z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    ),
  })
  .superRefine((env, ctx) => {
    if (env.EMBEDDINGS_PROVIDER === "openai" && !env.OPENAI_API_KEY) {
      ctx.addIssue({ code: "custom", path: ["OPENAI_API_KEY"], message: "is required when EMBEDDINGS_PROVIDER=openai" });
    }
    if (env.FILE_STORAGE === "s3" && !env.S3_BUCKET) {
      ctx.addIssue({ code: "custom", path: ["S3_BUCKET"], message: "is required when FILE_STORAGE=s3" });
    }
  });

export type Env = z.infer<typeof EnvSchema>;

export interface Config {
  port: number;
  databaseUrl: string | undefined;
  dataDir: string;
  adminToken: string | undefined;
  embeddings: { provider: "local" | "openai"; model: string | undefined; openaiApiKey?: string; openaiBaseUrl?: string };
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
  rateLimits: { windowSeconds: number; perKey: number; perAddress: number };
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
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    adminToken: env.ADMIN_TOKEN,
    embeddings: {
      provider: env.EMBEDDINGS_PROVIDER,
      model: env.EMBEDDINGS_MODEL,
      openaiApiKey: env.OPENAI_API_KEY,
      openaiBaseUrl: env.OPENAI_BASE_URL,
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
    rateLimits: { windowSeconds: env.RATE_LIMIT_WINDOW_SECONDS, perKey: env.RATE_LIMIT_PER_KEY, perAddress: env.RATE_LIMIT_PER_ADDRESS },
  };
}
