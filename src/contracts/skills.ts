import { boundedString } from "./common";
import { INPUT_LIMITS } from "./text-limits";
import { z } from "./zod";

export const SkillFileKindSchema = z.enum(["markdown", "script", "text", "binary"]);

export const SkillFileEntrySchema = z
  .object({
    path: z.string(),
    size: z.number().int().openapi({ description: "Byte length." }),
    kind: SkillFileKindSchema,
  })
  .openapi("SkillFileEntry");

export const SkillItemSchema = z
  .object({
    name: z.string(),
    description: z.string(),
    version: z.number(),
    source: z.enum(["uploaded", "authored"]),
    official: z.boolean(),
    allowedTools: z.array(z.string()).optional(),
    compatibility: z.string().optional(),
    files: z.array(SkillFileEntrySchema),
  })
  .openapi("SkillItem");

export const SkillsResponseSchema = z.object({ items: z.array(SkillItemSchema) }).openapi("SkillsResponse");

export const SkillFileResponseSchema = z
  .object({
    path: z.string(),
    kind: SkillFileKindSchema,
    size: z.number().int(),
    content: z.string().nullable().openapi({ description: "Inline content of a text-like file; null for binaries." }),
    url: z.string().nullable().openapi({ description: "Time-limited download address of a binary; null otherwise." }),
  })
  .openapi("SkillFileResponse");

export const SkillNameParamsSchema = z.object({
  name: boundedString(INPUT_LIMITS.lookupName).openapi({ description: `The skill name (at most ${INPUT_LIMITS.lookupName} characters).`, example: "churn-analysis" }),
});

export const SkillFileQuerySchema = z.object({
  path: boundedString(INPUT_LIMITS.filePath).openapi({
    description: `Path of the file inside the skill bundle, e.g. \`SKILL.md\` (at most ${INPUT_LIMITS.filePath} characters).`,
    example: "SKILL.md",
  }),
});
