import { SCOPES } from "../auth/scopes";
import { NonEmptyString, Timestamp } from "./common";
import { ArtifactStatusSchema } from "./feedback";
import { z } from "./zod";

export const WorkspaceIdParamsSchema = z.object({ id: NonEmptyString.openapi({ description: "Workspace id." }) });
export const KeyIdParamsSchema = z.object({ id: NonEmptyString.openapi({ description: "API key id." }) });
export const AdminArtifactIdParamsSchema = z.object({ id: NonEmptyString.openapi({ description: "Artifact id." }) });

export const CreateWorkspaceRequestSchema = z
  .object({
    name: NonEmptyString,
    organization: NonEmptyString.optional().openapi({
      description: "Organization name; created when none has it. Defaults to `Default`.",
    }),
    context: z.string().nullable().optional(),
  })
  .openapi("AdminCreateWorkspaceRequest");

export const UpdateWorkspaceRequestSchema = z
  .object({ name: NonEmptyString.optional(), context: z.string().nullable().optional() })
  .openapi("AdminUpdateWorkspaceRequest");

export const WorkspaceSchema = z
  .object({ id: z.string(), name: z.string(), organizationId: z.string(), context: z.string().nullable() })
  .openapi("AdminWorkspace");

export const ScopeSchema = z.enum(SCOPES);

export const CreateApiKeyRequestSchema = z
  .object({
    name: NonEmptyString.openapi({ description: "Name for identification; reported as `createdBy` in feedback." }),
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

export const ReviewQueueQuerySchema = z.object({ status: ArtifactStatusSchema.optional() });

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
  .object({ by: NonEmptyString.openapi({ description: "Who validated it." }) })
  .openapi("AdminValidateArtifactRequest");

export const DisputeArtifactRequestSchema = z
  .object({ by: NonEmptyString, reason: NonEmptyString.openapi({ description: "Why it is disputed; shown as disputeReason in feedback." }) })
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
