import { INPUT_LIMITS } from "./text-limits";
import { z } from "./zod";

// A skill is saved by agents under `skills/<name>/`, each of its files at its path below that: a
// skill name must be one safe path segment on every platform an agent runs on, and a file path
// a relative path. A data source's name is a label people gave a connection in the product: any
// text of bounded length, which travels percent-encoded in a URL path and is never a path itself.
// None of them may hold control characters, which terminals, logs and HTTP headers would act on.

export const SKILL_NAME_MAX = 64;
export const DATA_SOURCE_NAME_MAX = 64;

/** The Agent Skills convention: lowercase letters and digits in runs joined by single hyphens. */
const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const SKILL_NAME_RULE = `must be lowercase letters, digits and single hyphens, 1 to ${SKILL_NAME_MAX} characters (e.g. churn-analysis)`;

// Windows opens the device instead of a file for these, whatever the extension or case.
const WINDOWS_DEVICE = /^(?:con|prn|aux|nul|com[1-9]|lpt[1-9])(?:\..*)?$/i;
const WINDOWS_DEVICE_RULE = "must not be a device name Windows reserves (CON, PRN, AUX, NUL, COM1 to COM9, LPT1 to LPT9)";

// C0 (line breaks among them), DEL and C1.
const CONTROL_CHARACTER = /\p{Cc}/u;
const CONTROL_CHARACTER_RULE = "must not contain control characters (U+0000 to U+001F, U+007F to U+009F)";

/** Why `name` is not a valid skill name, as one sentence for `<field>: <problem>`; undefined when it is valid. */
export function skillNameProblem(name: string): string | undefined {
  if (name.length > SKILL_NAME_MAX || !SKILL_NAME.test(name)) return SKILL_NAME_RULE;
  if (WINDOWS_DEVICE.test(name)) return WINDOWS_DEVICE_RULE;
  return undefined;
}

/**
 * Why `name` is not a valid data source name; undefined when it is valid. Any other text is
 * fine: spaces, `/`, `:` and letters of any script ("Marketing / Ad Spend").
 */
export function dataSourceNameProblem(name: string): string | undefined {
  // Code points, not UTF-16 units, so that a name's length does not depend on its script.
  const length = [...name].length;
  if (length === 0 || length > DATA_SOURCE_NAME_MAX) return `must be 1 to ${DATA_SOURCE_NAME_MAX} characters`;
  if (CONTROL_CHARACTER.test(name)) return CONTROL_CHARACTER_RULE;
  if (name.trim() !== name) return "must not start or end with whitespace";
  // URL parsers resolve a `.` or `..` path segment, percent-encoded or not, before it is sent.
  if (name === "." || name === "..") return "must not be . or .., which a URL path cannot carry";
  return undefined;
}

/** Why `path` is not a valid path of a file in a skill; undefined when it is valid. */
export function skillFilePathProblem(path: string): string | undefined {
  if (path === "") return "must not be empty";
  // No longer than a lookup of a skill file may name, so that every stored file can be read.
  if (path.length > INPUT_LIMITS.filePath) return `must be at most ${INPUT_LIMITS.filePath} characters`;
  if (path.includes("\\") || path.startsWith("/") || path.split("/").some((segment) => segment === "" || segment === "." || segment === "..")) {
    return "must be a relative path with / separators and no empty, . or .. segments";
  }
  if (CONTROL_CHARACTER.test(path)) return CONTROL_CHARACTER_RULE;
  return undefined;
}

function nameSchema(problemOf: (name: string) => string | undefined) {
  return z.string().superRefine((name, ctx) => {
    const problem = problemOf(name);
    if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem });
  });
}

export const SkillNameSchema = nameSchema(skillNameProblem).openapi({
  description: `Lowercase letters, digits and single hyphens, 1 to ${SKILL_NAME_MAX} characters, not starting or ending with a hyphen (the Agent Skills convention); not a Windows device name. Agents save a skill under \`skills/<name>/\`.`,
  pattern: SKILL_NAME.source,
  minLength: 1,
  maxLength: SKILL_NAME_MAX,
  example: "churn-analysis",
});

export const DataSourceNameSchema = nameSchema(dataSourceNameProblem).openapi({
  description: `A label, 1 to ${DATA_SOURCE_NAME_MAX} characters: no control characters, no leading or trailing whitespace, not \`.\` or \`..\`. Anything else is fine (\`Marketing / Ad Spend\`): it travels percent-encoded in a URL path, and is never a file name or path by itself.`,
  minLength: 1,
  maxLength: DATA_SOURCE_NAME_MAX,
  example: "Marketing / Ad Spend",
});

export const SkillFilePathSchema = nameSchema(skillFilePathProblem).openapi({
  description: `Path inside the skill bundle, e.g. \`SKILL.md\` or \`scripts/check.py\`: relative, \`/\` separators, no empty, \`.\` or \`..\` segments, no control characters, at most ${INPUT_LIMITS.filePath} characters.`,
  minLength: 1,
  maxLength: INPUT_LIMITS.filePath,
  example: "scripts/check.py",
});
