import { fetchArtifactForConnector, searchArtifactsForConnector } from "../operations/artifacts";
import { getQueryIntelligence, listDataSources } from "../operations/data-sources";
import { getBriefing, recallMemories } from "../operations/intelligence";
import { getSkillFile, listSkills } from "../operations/skills";
import { toolFor, type McpTool } from "./mcp-tool";

/** Every tool the server offers, in the order clients list them. All are read-only. */
export const MCP_TOOLS: readonly McpTool[] = [
  toolFor(searchArtifactsForConnector, {
    name: "search",
    title: "Search validated artifacts",
    arguments: {
      query: "Natural-language text, e.g. 'why did enterprise churn fall'.",
      limit: "How many results, 1 to 20 (default 10).",
      createdAfter: "Optional: only artifacts created at or after this time, in milliseconds since the Unix epoch (UTC), e.g. 1763596800000.",
      createdBefore: "Optional: only artifacts created at or before this time, in milliseconds since the Unix epoch (UTC).",
      validatedAfter: "Optional: only artifacts a person validated at or after this time, in milliseconds since the Unix epoch (UTC).",
      validatedBefore: "Optional: only artifacts a person validated at or before this time, in milliseconds since the Unix epoch (UTC).",
      dataSource: "Optional: only artifacts citing a data source of exactly this name (as in fetch's metadata.dataSources, or a name from list_data_sources).",
      minConfidence: "Optional: only artifacts whose confidence is at least this, 0 to 1.",
    },
    reportsSearchMode: true,
  }),
  toolFor(fetchArtifactForConnector, {
    name: "fetch",
    title: "Fetch a validated artifact",
    arguments: { id: "An artifact id from search." },
  }),
  toolFor(getBriefing, {
    name: "get_briefing",
    title: "Workspace briefing",
    description:
      "Read first: the workspace's standing context, hard directives agents must always follow, and active rules and definitions (newest first, at most 200). The same answer as GET /api/v1/briefing.",
  }),
  toolFor(recallMemories, {
    name: "recall_memories",
    title: "Recall memories",
    description:
      "Searches the workspace's currently active memories (preferences, rules, corrections, definitions, findings, context) by meaning and words, best first, at most 10. The same answer as GET /api/v1/memories, with searchMode (that endpoint's X-Search-Mode header).",
    arguments: { query: "What to recall, in natural language." },
    reportsSearchMode: true,
  }),
  toolFor(listDataSources, {
    name: "list_data_sources",
    title: "Data sources",
    description:
      "Metadata of the workspace's data sources: connector type, status, table schema and table annotations (use cases and gotchas). Never credentials; no query runs. The same answer as GET /api/v1/data-sources.",
  }),
  toolFor(getQueryIntelligence, {
    name: "get_query_intelligence",
    title: "Query intelligence of a data source",
    description:
      "Before writing SQL: proven query patterns and past error learnings of one data source, ranked by relevance to the question (at most 10 each). The same answer as GET /api/v1/data-sources/{name}/query-intelligence, with searchMode (that endpoint's X-Search-Mode header).",
    arguments: {
      name: "The data source name, as list_data_sources shows it.",
      question: "What you want to compute, in natural language.",
    },
    reportsSearchMode: true,
  }),
  toolFor(listSkills, {
    name: "list_skills",
    title: "Enabled skills",
    description:
      "The workspace's enabled skills (reusable instructions and scripts in the Agent Skills layout) with their files' paths, sizes and kinds. The same answer as GET /api/v1/skills.",
  }),
  toolFor(getSkillFile, {
    name: "get_skill_file",
    title: "A file of a skill",
    description:
      "One file of an enabled skill: text-like files inline (content), binaries as a download link that works without a key for a few minutes (url). The same answer as GET /api/v1/skills/{name}/files.",
    arguments: {
      name: "The skill name, as list_skills shows it.",
      path: "The file's path inside the skill, e.g. SKILL.md.",
    },
  }),
];
