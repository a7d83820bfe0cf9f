import { SkillFileQuerySchema, SkillFileResponseSchema, SkillNameParamsSchema, SkillsResponseSchema } from "../contracts/skills";
import { z } from "../contracts/zod";
import { defineOperation } from "./operation";
import { toSkillFileResponse, toSkillsResponse } from "./skills-wire";

export const listSkills = defineOperation({
  name: "listSkills",
  summary: "Enabled skills",
  description: "The workspace's enabled skills, by name, with the entries of their files (path, byte size, kind).",
  access: { kind: "workspace", scope: "skills:read" },
  input: z.object({}),
  output: SkillsResponseSchema,
  run: (_input, { principal, services }) => services.skills.list(principal.workspaceId),
  toWire: toSkillsResponse,
});

export const getSkillFile = defineOperation({
  name: "getSkillFile",
  summary: "A file of a skill",
  description:
    "Text-like files (markdown, script, text) inline (`url: null`); binaries as a download address that works without a key for a limited time, 5 minutes by default (`content: null`). The path must match a file entry exactly.",
  access: { kind: "workspace", scope: "skills:read" },
  input: SkillNameParamsSchema.extend(SkillFileQuerySchema.shape),
  output: SkillFileResponseSchema,
  run: ({ name, path }, { principal, services }) => services.skills.getFile(principal.workspaceId, name, path),
  toWire: (file, { baseUrl }) => toSkillFileResponse(file, baseUrl),
  errors: {
    not_found: { description: "Unknown skill or file path.", example: 'Skill "churn-analysis" has no file at path "README.md"' },
    dependency_failed: { description: "File storage unreachable." },
  },
});
