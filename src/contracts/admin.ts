import { SCOPES } from "../auth/scopes";
import { boundedString, integerQueryParam, NonEmptyString, Timestamp } from "./common";
import { ArtifactStatusSchema } from "./feedback";
import { INPUT_LIMITS } from "./text-limits";
import { z } from "./zod";

export const WorkspaceIdParamsSchema = z.object({ id: NonEmptyString.openapi({ description: "Workspace id." }) });
export const KeyIdParamsSchema = z.object({ id: NonEmptyString.openapi({ description: "API key id." }) });
export const AdminArtifactIdParamsSchema = z.object({ id: NonEmptyString.openapi({ description: "Artifact id." }) });
export const WorkspaceKeyParamsSchema = z.object({
  workspaceId: NonEmptyString.openapi({ description: "Workspace id." }),
  keyId: NonEmptyString.openapi({ description: "API key id." }),
});
export const WorkspaceArtifactParamsSchema = z.object({
  workspaceId: NonEmptyString.openapi({ description: "Workspace id." }),
  artifactId: NonEmptyString.openapi({ description: "Artifact id." }),
});

const WorkspaceNameSchema = boundedString(INPUT_LIMITS.name).openapi({ description: `1 to ${INPUT_LIMITS.name} characters.` });
const WorkspaceContextSchema = z
  .string()
  .max(INPUT_LIMITS.workspaceContext, { error: `must be at most ${INPUT_LIMITS.workspaceContext} characters` })
  .nullable()
  .openapi({ description: `Standing context injected into every agent prompt, at most ${INPUT_LIMITS.workspaceContext} characters; null for none.` });

export const CreateWorkspaceRequestSchema = z
  .object({
    name: WorkspaceNameSchema,
    organization: boundedString(INPUT_LIMITS.name).optional().openapi({
      description: `Organization name (at most ${INPUT_LIMITS.name} characters); created when none has it. Defaults to \`Default\`.`,
    }),
    context: WorkspaceContextSchema.optional(),
  })
  .openapi("AdminCreateWorkspaceRequest");

export const UpdateWorkspaceRequestSchema = z
  .object({ name: WorkspaceNameSchema.optional(), context: WorkspaceContextSchema.optional() })
  .openapi("AdminUpdateWorkspaceRequest");

export const WorkspaceSchema = z
  .object({ id: z.string(), name: z.string(), organizationId: z.string(), context: z.string().nullable() })
  .openapi("AdminWorkspace");

export const ScopeSchema = z.enum(SCOPES);

export const CreateApiKeyRequestSchema = z
  .object({
    name: boundedString(INPUT_LIMITS.name).openapi({ description: `Name for identification, at most ${INPUT_LIMITS.name} characters; reported as \`createdBy\` in feedback.` }),
    scopes: z.array(ScopeSchema).optional().openapi({ description: "Omit or leave empty for full access." }),
  })
  .openapi("AdminCreateApiKeyRequest");

const ApiKeyFields = {
  id: z.string(),
  name: z.string(),
  scopes: z.array(ScopeSchema),
  createdAt: Timestamp,
};

export const CreatedApiKeySchema = z
  .object({ ...ApiKeyFields, key: z.string().openapi({ description: "The secret. Shown this once; only its hash is kept." }) })
  .openapi("AdminCreatedApiKey");

export const ApiKeyListSchema = z
  .object({
    items: z.array(
      z.object({ ...ApiKeyFields, lastUsedAt: Timestamp.nullable(), revokedAt: Timestamp.nullable() }).openapi("AdminApiKey"),
    ),
  })
  .openapi("AdminApiKeyList");

export const WorkspaceConnectedAppParamsSchema = z.object({
  workspaceId: NonEmptyString.openapi({ description: "Workspace id." }),
  appId: NonEmptyString.openapi({ description: "Connected app (OAuth grant) id." }),
});

export const ConnectedAppListSchema = z
  .object({
    items: z.array(
      z
        .object({
          id: z.string().openapi({ description: "The grant's id." }),
          clientId: z.string().openapi({ description: "The OAuth client id: a registered id, or the URL of the client's metadata document." }),
          clientName: z.string(),
          redirectHost: z.string().openapi({ description: "Where the authorization sent the person back to." }),
          grantedBy: z.string().openapi({ description: "Email of the console account that approved it." }),
          scopes: z.array(ScopeSchema).openapi({ description: "Read scopes only: a connected app never has artifacts:write." }),
          createdAt: Timestamp,
          lastUsedAt: Timestamp.nullable(),
          revokedAt: Timestamp.nullable(),
        })
        .openapi("AdminConnectedApp"),
    ),
  })
  .openapi("AdminConnectedAppList");

/** The most a review queue answers at once: the review console's page and the admin API's list alike. */
export const REVIEW_QUEUE_MAX = 200;

export const ReviewQueueQuerySchema = z.object({
  status: ArtifactStatusSchema.optional(),
  limit: integerQueryParam({ min: 1, max: REVIEW_QUEUE_MAX, default: REVIEW_QUEUE_MAX, description: `How many artifacts, newest first: 1 to ${REVIEW_QUEUE_MAX}.` }),
});

export const ReviewQueueItemSchema = z
  .object({
    id: z.string(),
    status: ArtifactStatusSchema,
    trigger: z.enum(["external", "chat"]),
    summary: z.string(),
    why: z.string(),
    confidence: z.number(),
    createdBy: z.string(),
    createdAt: Timestamp,
    validatedAt: Timestamp.optional(),
    validatedBy: z.string().optional(),
    disputeReason: z.string().optional(),
  })
  .openapi("AdminReviewQueueItem");

export const ReviewQueueSchema = z.object({ items: z.array(ReviewQueueItemSchema) }).openapi("AdminReviewQueue");

export const ValidateArtifactRequestSchema = z
  .object({ by: boundedString(INPUT_LIMITS.reviewedBy).openapi({ description: `Who validated it, at most ${INPUT_LIMITS.reviewedBy} characters.` }) })
  .openapi("AdminValidateArtifactRequest");

export const MAX_DISPUTE_REASON_LENGTH = 2000;

export const DisputeArtifactRequestSchema = z
  .object({
    by: boundedString(INPUT_LIMITS.reviewedBy).openapi({ description: `Who disputed it, at most ${INPUT_LIMITS.reviewedBy} characters.` }),
    // Trimmed, so that a reason of blanks is as empty as no reason: the agent that pushed the draft reads it.
    reason: z
      .string()
      .trim()
      .min(1, { error: "must not be empty" })
      .max(MAX_DISPUTE_REASON_LENGTH, { error: `must be at most ${MAX_DISPUTE_REASON_LENGTH} characters` })
      .openapi({ description: `Why it is disputed, at most ${MAX_DISPUTE_REASON_LENGTH} characters (surrounding blanks are dropped); shown as disputeReason in feedback.` }),
  })
  .openapi("AdminDisputeArtifactRequest");

export const ReviewResultSchema = z
  .object({ artifactId: z.string(), status: z.enum(["validated", "disputed"]) })
  .openapi("AdminReviewResult");

const IndexCountsSchema = z.object({
  artifacts: z.number().int().openapi({ description: "Artifact vectors (two per artifact: headline and body)." }),
  memories: z.number().int(),
  queryPatterns: z.number().int(),
  errorLearnings: z.number().int(),
});

export const ReindexResultSchema = z
  .object({
    cleared: IndexCountsSchema.openapi({ description: "Vectors marked pending, by kind." }),
    embedded: z.number().int().openapi({ description: "Vectors made again during this request." }),
    pending: z.boolean().openapi({ description: "True when the provider failed: the rest is embedded in the background." }),
  })
  .openapi("AdminReindexResult");

const TableIndexStateSchema = z
  .object({
    pending: z.number().int().openapi({ description: "Vectors still to make: new rows, rows of another model, rows refused fewer than 3 times." }),
    failed: z.number().int().openapi({ description: "Rows set aside after the provider refused them 3 times; reindex retries them." }),
    embedded: z.number().int().openapi({ description: "Rows with a vector of the configured model." }),
    skipped: z.number().int().openapi({ description: "Rows whose text is empty: nothing to embed; full-text search finds them." }),
    unfindable: z.number().int().openapi({
      description:
        "Of `pending`, the items not yet findable by meaning: artifacts whose headline vector (summary and key findings) is still to make, " +
        "which the indexer makes before any body vector, and ledger memories (an artifact's memory-bank entry comes with the bodies: it states " +
        "the summary its artifact's headline makes findable); for patterns and learnings, every pending row. Full-text search finds them meanwhile.",
    }),
    failures: z
      .array(
        z.object({
          id: z.string().openapi({ description: "The row: an artifact vector is `<artifact id>:headline`, `<artifact id>:body` or, for a chunk of its body, `<artifact id>:body:<n>`." }),
          attempts: z.number().int(),
          error: z.string().nullable().openapi({ description: "The provider's last refusal." }),
        }),
      )
      .openapi({ description: "Up to 20 failed rows with their last error." }),
  })
  .openapi("AdminTableIndexState");

const OwnVectorIndexSchema = z
  .object({
    state: z.enum(["exactScan", "built", "unbuildable"]).openapi({
      description:
        "`exactScan`: no index of its own (too small, or not built yet), searched exactly; `built`: searched through its own index; " +
        "`unbuildable`: its build failed and waits until the rows change by a quarter or INDEX_BUILD_MEMORY_MB changes; searched exactly meanwhile.",
    }),
    documents: z.number().int().nullable().openapi({ description: "For `built`: the documents the index was built from." }),
    probes: z.number().int().nullable().openapi({ description: "For `built`: the lists a search reads." }),
    vectors: z.number().int().nullable().openapi({ description: "For `unbuildable`: the vectors the failed build was to hold." }),
    error: z.string().nullable().openapi({ description: "For `unbuildable`: why the build failed, e.g. the memory it needed and the memory allowed." }),
    at: z.string().nullable().openapi({ description: "When it was built, or when the build failed (ISO 8601)." }),
  })
  .openapi("AdminOwnVectorIndex");

export const IndexStateSchema = z
  .object({
    model: z.string().openapi({ description: "The configured embeddings model; vectors of other models count as pending." }),
    tables: z.object({
      artifacts: TableIndexStateSchema,
      memories: TableIndexStateSchema,
      queryPatterns: TableIndexStateSchema,
      errorLearnings: TableIndexStateSchema,
    }),
    ownIndexes: z
      .object({
        artifacts: OwnVectorIndexSchema,
        memories: OwnVectorIndexSchema,
        queryPatterns: OwnVectorIndexSchema,
        errorLearnings: OwnVectorIndexSchema,
      })
      .openapi({ description: "Per kind of row: whether the workspace's vectors are searched through an index of its own, and a build that failed." }),
  })
  .openapi("AdminIndexState");

export const NameViolationsSchema = z
  .object({
    items: z.array(
      z
        .object({
          workspaceId: z.string(),
          workspaceName: z.string(),
          kind: z.enum(["skill", "skillFile", "dataSource"]),
          skill: z.string().optional().openapi({ description: "For a skill file: the name of its skill." }),
          name: z.string().openapi({ description: "The stored name (for a skill file, its path), exactly as it is." }),
          problem: z.string().openapi({ description: "The rule it breaks, e.g. `must be lowercase letters, digits and single hyphens, 1 to 64 characters (e.g. churn-analysis)`." }),
        })
        .openapi("AdminNameViolation"),
    ),
  })
  .openapi("AdminNameViolations");

export const WorkspaceMemoryParamsSchema = z.object({
  workspaceId: NonEmptyString.openapi({ description: "Workspace id." }),
  memoryId: NonEmptyString.openapi({ description: "Memory id: the `memoryId` recall answers with." }),
});
export const WorkspaceSkillParamsSchema = z.object({
  workspaceId: NonEmptyString.openapi({ description: "Workspace id." }),
  name: boundedString(INPUT_LIMITS.lookupName).openapi({ description: "The skill's name, as `GET /api/v1/skills` lists it (a disabled skill too).", example: "churn-analysis" }),
});
export const WorkspaceDataSourceParamsSchema = z.object({
  workspaceId: NonEmptyString.openapi({ description: "Workspace id." }),
  name: boundedString(INPUT_LIMITS.lookupName).openapi({ description: "The data source's name, URL-encoded.", example: "finance lake" }),
});

export const WorkspaceDeletionSchema = z
  .object({
    workspaceId: z.string(),
    rows: z.record(z.string(), z.number().int()).openapi({
      description: "Rows deleted per table by the deletion's own statements (rows that a foreign-key cascade took with them are not counted).",
    }),
    indexesDropped: z.array(z.string()).openapi({ description: "The workspace's own vector indexes that were dropped." }),
    blobsRemoved: z.number().int().openapi({ description: "Stored skill-file blobs removed from the file storage." }),
  })
  .openapi("AdminWorkspaceDeletion");

export const IsolateWorkspaceRequestSchema = z
  .object({
    node: z
      .string()
      .regex(/^[^\s:]{1,253}:\d{1,5}$/, { error: "must be a worker as host:port, as GET /readyz lists them" })
      .optional()
      .openapi({ description: "The worker to move the workspace to, `host:port` as the cluster names it (GET /readyz lists them). Omitted (`{}`): it stays on the node that holds it." }),
  })
  .openapi("AdminIsolateWorkspaceRequest");

export const WorkspaceIsolationSchema = z
  .object({
    workspaceId: z.string(),
    node: z.string().openapi({ description: "The worker that holds the workspace now, `host:port`." }),
    shardId: z.string().openapi({ description: "The workspace's shard of `workspaces` (every other table of it is colocated)." }),
    isolated: z.literal(true),
    alreadyIsolated: z.boolean().openapi({ description: "The workspace had a shard of its own already: only the move, if any, was done." }),
    moved: z.boolean().openapi({ description: "The shard was moved to `node` by this request." }),
    ownIndexesBuilt: z.array(z.string()).openapi({ description: "The workspace's own vector indexes built where it now is." }),
    tookMs: z.number().int().openapi({ description: "How long the isolation and move took." }),
  })
  .openapi("AdminWorkspaceIsolation");
