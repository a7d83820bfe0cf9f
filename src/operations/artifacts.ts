import {
  ArtifactDataSourceSchema,
  ArtifactDetailSchema,
  ArtifactIdParamsSchema,
  CreateArtifactRequestSchema,
  CreateArtifactResponseSchema,
  IdempotencyHeadersSchema,
  SearchArtifactsQuerySchema,
  SearchArtifactsResponseSchema,
} from "../contracts/artifacts";
import { FeedbackQuerySchema, FeedbackResponseSchema } from "../contracts/feedback";
import { z } from "../contracts/zod";
import { renderArtifactText } from "../services/artifact-text";
import { toArtifactDetail, toArtifactFilters, toArtifactSummary, toFeedbackItem } from "./artifact-wire";
import { defineOperation } from "./operation";

const ARTIFACT_NOT_FOUND = { description: "No validated artifact with this id in the key's workspace.", example: "Artifact art_7Hc2Wq9LmB4xN1tRz6Ke0p not found" };

export const pushArtifact = defineOperation({
  name: "pushArtifact",
  summary: "Push a draft artifact",
  description:
    "Creates a draft insight, analysis or prediction in the key's workspace. It becomes searchable only after a human validates it.",
  access: { kind: "workspace", scope: "artifacts:write" },
  input: z.object({ artifact: CreateArtifactRequestSchema, idempotencyKey: IdempotencyHeadersSchema.shape["idempotency-key"] }),
  output: CreateArtifactResponseSchema,
  run: ({ artifact, idempotencyKey }, { principal, services }) => services.artifacts.push(principal, artifact, idempotencyKey),
  toWire: (result) => ({ artifactId: result.artifactId, status: "draft" as const }),
  errors: {
    unprocessable: {
      description: "The Idempotency-Key was used before with a different body.",
      example: "Idempotency-Key was already used with a different request body; use a new key for a new artifact",
    },
  },
});

export const searchArtifacts = defineOperation({
  name: "searchArtifacts",
  summary: "Search validated artifacts",
  description:
    "Semantic search over the validated artifacts of the key's workspace, ranked by relevance. Optional filters (creation and validation time, a data source's name, a least confidence) narrow the artifacts searched before they are ranked: `limit` still means the best matching ones, and an artifact's score is the same with or without a filter.",
  access: { kind: "workspace", scope: "artifacts:read" },
  input: SearchArtifactsQuerySchema,
  output: SearchArtifactsResponseSchema,
  run: ({ query, limit, ...filters }, { principal, services }) => services.artifacts.search(principal, query, limit, toArtifactFilters(filters)),
  toWire: (found) => ({ results: found.hits.map(toArtifactSummary) }),
});

export const getArtifact = defineOperation({
  name: "getArtifact",
  summary: "Fetch a validated artifact",
  description: "The full artifact, with its content cut to 20,000 characters.",
  access: { kind: "workspace", scope: "artifacts:read" },
  input: ArtifactIdParamsSchema,
  output: ArtifactDetailSchema,
  run: ({ id }, { principal, services }) => services.artifacts.getValidated(principal, id),
  toWire: toArtifactDetail,
  errors: { not_found: ARTIFACT_NOT_FOUND },
});

export const listFeedback = defineOperation({
  name: "listFeedback",
  summary: "Validation outcomes of pushed artifacts",
  description:
    "Externally pushed artifacts with their review outcome, newest first. Fewer items than `limit` does not mean the end: only `nextCursor: null` does.",
  access: { kind: "workspace", scope: "artifacts:read" },
  input: FeedbackQuerySchema,
  output: FeedbackResponseSchema,
  run: (query, { principal, services }) => services.artifacts.feedback(principal, query),
  toWire: (page) => ({ items: page.items.map(toFeedbackItem), nextCursor: page.nextCursor }),
});

/** Where a person opens an artifact: the review console's page of it. */
export const artifactPageUrl = (baseUrl: string, id: string) => `${baseUrl}/console/artifacts/${encodeURIComponent(id)}`;

// The shapes OpenAI's connectors and deep research require of `search` and `fetch`: the same
// searches as searchArtifacts and getArtifact, answered as a title, a link and readable text.
const ConnectorResultSchema = z.object({
  id: z.string().describe("Artifact id, for fetch."),
  title: z.string().describe("The artifact's one-line summary."),
  url: z.string().describe("Where a person opens the artifact."),
});

export const searchArtifactsForConnector = defineOperation({
  name: "searchArtifactsForConnector",
  summary: "Search validated artifacts, in the connector shape",
  description:
    "Searches the workspace's human-validated artifacts (insights, analyses, predictions) by meaning and words, best first. Drafts and disputed artifacts are never returned. Optional filters keep only artifacts created or validated in a time range, citing a data source, or of a least confidence; they narrow what is searched, so limit still means the best matching ones. Use fetch with a result's id for the full text.",
  access: searchArtifacts.access,
  input: searchArtifacts.input,
  output: z.object({ results: z.array(ConnectorResultSchema) }),
  run: searchArtifacts.run,
  toWire: (found, { baseUrl }) => ({ results: found.hits.map((artifact) => ({ id: artifact.id, title: artifact.summary, url: artifactPageUrl(baseUrl, artifact.id) })) }),
});

export const fetchArtifactForConnector = defineOperation({
  name: "fetchArtifactForConnector",
  summary: "Fetch a validated artifact, in the connector shape",
  description:
    "The full readable text of one validated artifact: summary, why, key findings, recommendations, confidence and its explanation, and the body as text (cut at 20,000 characters).",
  access: getArtifact.access,
  input: getArtifact.input,
  output: z.object({
    id: z.string(),
    title: z.string(),
    text: z.string(),
    url: z.string(),
    metadata: z.object({
      confidence: z.number(),
      createdAt: z.number().int().describe("Milliseconds since the Unix epoch."),
      validatedAt: z.number().int().optional(),
      dataSources: z.array(ArtifactDataSourceSchema),
      sourceSystem: z.string().optional(),
      previousArtifactId: z.string().optional(),
      truncated: z.boolean().describe("True when text was cut at 20,000 characters."),
    }),
  }),
  run: getArtifact.run,
  toWire: (artifact, { baseUrl }) => {
    const { text, truncated } = renderArtifactText(artifact);
    return {
      id: artifact.id,
      title: artifact.summary,
      text,
      url: artifactPageUrl(baseUrl, artifact.id),
      metadata: {
        confidence: artifact.confidence,
        createdAt: artifact.createdAt.getTime(),
        validatedAt: artifact.validatedAt?.getTime(),
        dataSources: Array.isArray(artifact.dataSources) ? (artifact.dataSources as z.input<typeof ArtifactDataSourceSchema>[]) : [],
        sourceSystem: artifact.sourceSystem ?? undefined,
        previousArtifactId: artifact.previousArtifactId ?? undefined,
        truncated,
      },
    };
  },
  errors: { not_found: ARTIFACT_NOT_FOUND },
});
