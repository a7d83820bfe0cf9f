import {
  WorkspaceArtifactParamsSchema,
  WorkspaceDataSourceParamsSchema,
  WorkspaceDeletionSchema,
  WorkspaceIdParamsSchema,
  WorkspaceMemoryParamsSchema,
  WorkspaceSkillParamsSchema,
} from "../contracts/admin";
import { NO_SUCH_WORKSPACE } from "./admin-workspaces";
import { defineOperation, NO_CONTENT } from "./operation";

const GONE_AT_ONCE = "It is gone from search, recall, feedback, MCP and the review console when the answer is sent.";

export const adminDeleteArtifact = defineOperation({
  name: "adminDeleteArtifact",
  summary: "Delete an artifact",
  description: `Deletes the artifact in any status, with its vectors, body chunks and memory-bank entry. ${GONE_AT_ONCE} An artifact of another workspace is not found here, exactly as an unknown one.`,
  access: { kind: "admin" },
  input: WorkspaceArtifactParamsSchema,
  output: NO_CONTENT,
  run: ({ workspaceId, artifactId }, { services }) => services.deletions.deleteArtifact(workspaceId, artifactId),
  errors: {
    not_found: { description: "No such artifact in this workspace, or no such workspace.", example: "Artifact art_7Hc2Wq9LmB4xN1tRz6Ke0p not found" },
  },
});

export const adminDeleteMemory = defineOperation({
  name: "adminDeleteMemory",
  summary: "Delete a memory",
  description: `Deletes a memory of the ledger (the \`memoryId\` recall answers with). ${GONE_AT_ONCE} The memory-bank entry of an artifact goes with its artifact only.`,
  access: { kind: "admin" },
  input: WorkspaceMemoryParamsSchema,
  output: NO_CONTENT,
  run: ({ workspaceId, memoryId }, { services }) => services.deletions.deleteMemory(workspaceId, memoryId),
  errors: {
    not_found: { description: "No such memory in this workspace, or no such workspace.", example: "Memory mem_5Tg8Kd2PqW7zL0xNc3Hv9b not found" },
    conflict: {
      description: "The memory is an artifact's memory-bank entry: delete the artifact.",
      example: "Memory mem_5Tg8Kd2PqW7zL0xNc3Hv9b is the memory-bank entry of artifact art_7Hc2Wq9LmB4xN1tRz6Ke0p; delete the artifact instead",
    },
  },
});

export const adminDeleteSkill = defineOperation({
  name: "adminDeleteSkill",
  summary: "Delete a skill",
  description: `Deletes the skill, enabled or not, with every file, and the stored bytes no other file of the workspace shares. ${GONE_AT_ONCE}`,
  access: { kind: "admin" },
  input: WorkspaceSkillParamsSchema,
  output: NO_CONTENT,
  run: ({ workspaceId, name }, { services }) => services.deletions.deleteSkill(workspaceId, name),
  errors: {
    not_found: { description: "No skill of this name in this workspace, or no such workspace.", example: 'No skill named "churn-analysis" in this workspace' },
  },
});

export const adminDeleteDataSource = defineOperation({
  name: "adminDeleteDataSource",
  summary: "Delete a data source",
  description: `Deletes the data source with its query patterns and error learnings. ${GONE_AT_ONCE}`,
  access: { kind: "admin" },
  input: WorkspaceDataSourceParamsSchema,
  output: NO_CONTENT,
  run: ({ workspaceId, name }, { services }) => services.deletions.deleteDataSource(workspaceId, name),
  errors: {
    not_found: { description: "No data source of this name in this workspace, or no such workspace.", example: 'No data source named "finance lake" in this workspace' },
  },
});

export const adminDeleteWorkspace = defineOperation({
  name: "adminDeleteWorkspace",
  summary: "Delete a workspace",
  description:
    "Deletes the workspace and everything derived from it, in one transaction: artifacts with their vectors and body chunks, memories, directives, data sources with their patterns and learnings, skills and their files, idempotency records, API keys, connected apps with their OAuth tokens, reviewer memberships (an account that reached no other workspace is deleted with its sessions), rate-limit counters and search statistics. Then the workspace's own vector indexes are dropped and its stored skill files removed. Its keys answer 401 at once in this process and within `API_KEY_CACHE_TTL_MS` in others.",
  access: { kind: "admin" },
  input: WorkspaceIdParamsSchema,
  output: WorkspaceDeletionSchema,
  run: ({ id }, { services }) => services.workspaceDeletion.delete(id),
  errors: { not_found: NO_SUCH_WORKSPACE },
});
