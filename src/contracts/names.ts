import { z } from "./zod";

// Agents save a skill under `skills/<name>/` and put a data source's name in a URL path or a file
// name, so both names must be a single safe path segment on every platform an agent runs on.

export const SKILL_NAME_MAX = 64;
export const DATA_SOURCE_NAME_MAX = 64;

/** The Agent Skills convention: lowercase letters and digits in runs joined by single hyphens. */
const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const SKILL_NAME_RULE = `must be lowercase letters, digits and single hyphens, 1 to ${SKILL_NAME_MAX} characters (e.g. churn-analysis)`;

// Windows opens the device instead of a file for these, whatever the extension or case.
const WINDOWS_DEVICE = /^(?:con|prn|aux|nul|com[1-9]|lpt[1-9])(?:\..*)?$/i;
const WINDOWS_DEVICE_RULE = "must not be a device name Windows reserves (CON, PRN, AUX, NUL, COM1 to COM9, LPT1 to LPT9)";

// Path separators of POSIX and Windows, the other characters Windows refuses in a file name, and
// control characters (C0, DEL, C1), which terminals and logs would interpret.
const UNSAFE_CHARACTER = /[/\\<>:"|?*\p{Cc}]/u;

/** Why `name` is not a valid skill name, as one sentence for `<field>: <problem>`; undefined when it is valid. */
export function skillNameProblem(name: string): string | undefined {
  if (name.length > SKILL_NAME_MAX || !SKILL_NAME.test(name)) return SKILL_NAME_RULE;
  if (WINDOWS_DEVICE.test(name)) return WINDOWS_DEVICE_RULE;
  return undefined;
}

/** Why `name` is not a valid data source name; undefined when it is valid. Spaces inside are fine ("finance lake"). */
export function dataSourceNameProblem(name: string): string | undefined {
  // Code points, not UTF-16 units, so that a name's length does not depend on its script.
  const length = [...name].length;
  if (length === 0 || length > DATA_SOURCE_NAME_MAX) return `must be 1 to ${DATA_SOURCE_NAME_MAX} characters`;
  if (name === "." || name === "..") return "must not be . or ..";
  if (UNSAFE_CHARACTER.test(name)) return 'must not contain / \\ < > : " | ? * or control characters';
  if (name.trim() !== name) return "must not start or end with whitespace";
  if (WINDOWS_DEVICE.test(name)) return WINDOWS_DEVICE_RULE;
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
  description: `1 to ${DATA_SOURCE_NAME_MAX} characters, usable as one path segment and file name: no / \\ < > : " | ? * or control characters, not . or .., no leading or trailing whitespace, not a Windows device name. Spaces inside are fine.`,
  minLength: 1,
  maxLength: DATA_SOURCE_NAME_MAX,
  example: "finance lake",
});
