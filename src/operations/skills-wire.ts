import type { SkillFile, SkillService } from "../services/skill.service";

type Skill = Awaited<ReturnType<SkillService["list"]>>[number];

/** The wire form of the skill list; REST and MCP answer with exactly this. */
export const toSkillsResponse = (skills: Skill[]) => ({
  items: skills.map((skill) => ({
    name: skill.name,
    description: skill.description,
    version: skill.version,
    source: skill.source,
    official: skill.official,
    allowedTools: skill.allowedTools.length > 0 ? skill.allowedTools : undefined,
    compatibility: skill.compatibility ?? undefined,
    files: skill.files,
  })),
});

/**
 * The wire form of a skill file. The database storage signs a path on this app; without
 * PUBLIC_BASE_URL it is made absolute against `requestBase`, the address the caller used.
 */
export const toSkillFileResponse = (file: SkillFile, requestBase: string) => ({
  ...file,
  url: file.url === null ? null : new URL(file.url, requestBase).toString(),
});
