import { NonEmptyString } from "../../contracts/common";
import { ArtifactDataSourceSchema } from "../../contracts/artifacts";
import { z } from "../../contracts/zod";
import { renderArtifactText } from "../../services/artifact-text";
import { defineTool } from "../mcp-tool";

// The shapes OpenAI's connectors and deep research require of `search` and `fetch`.
const SearchResultSchema = z.object({
  id: z.string().describe("Artifact id, for fetch."),
  title: z.string().describe("The artifact's one-line summary."),
  url: z.string().describe("Where a person opens the artifact."),
});

export const searchTool = defineTool({
  name: "search",
  title: "Search validated artifacts",
  description:
    "Searches the workspace's human-validated artifacts (insights, analyses, predictions) by meaning and words, best first. Drafts and disputed artifacts are never returned. Use fetch with a result's id for the full text.",
  scope: "artifacts:read",
  input: z.object({
    query: NonEmptyString.describe("Natural-language text, e.g. 'why did enterprise churn fall'."),
    limit: z.number().int().min(1).max(20).optional().describe("How many results, 1 to 20 (default 10)."),
  }),
  output: z.object({ results: z.array(SearchResultSchema) }),
  handle: async ({ query, limit }, ctx) => {
    const found = await ctx.services.artifacts.search(ctx.principal, query, limit ?? 10);
    return { results: found.map((artifact) => ({ id: artifact.id, title: artifact.summary, url: ctx.artifactUrl(artifact.id) })) };
  },
});

export const fetchTool = defineTool({
  name: "fetch",
  title: "Fetch a validated artifact",
  description:
    "The full readable text of one validated artifact: summary, why, key findings, recommendations, confidence and its explanation, and the body as text (cut at 20,000 characters).",
  scope: "artifacts:read",
  input: z.object({ id: NonEmptyString.describe("An artifact id from search.") }),
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
  handle: async ({ id }, ctx) => {
    const artifact = await ctx.services.artifacts.getValidated(ctx.principal, id);
    const { text, truncated } = renderArtifactText(artifact);
    return {
      id: artifact.id,
      title: artifact.summary,
      text,
      url: ctx.artifactUrl(artifact.id),
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
});
