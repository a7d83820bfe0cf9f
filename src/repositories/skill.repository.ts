import type { DbTx } from "../db/database";
import type { SkillFileKind, SkillSource } from "../generated/prisma/enums";
import { newId } from "../lib/ids";
import { byCodePoints } from "../lib/code-point-order";

export interface SkillFileRecord {
  path: string;
  kind: SkillFileKind;
  /** Byte length. */
  size: number;
  contentType: string;
  /** Where the bytes are in the file storage. */
  storageKey: string;
}

export interface SkillRecord {
  name: string;
  description: string;
  version: number;
  source: SkillSource;
  official: boolean;
  allowedTools: string[];
  compatibility: string | null;
  files: Array<Pick<SkillFileRecord, "path" | "kind" | "size">>;
}

export interface SkillUpsert extends Omit<SkillRecord, "files"> {
  enabled: boolean;
  files: SkillFileRecord[];
}

const FILE_FIELDS = { path: true, kind: true, size: true, contentType: true, storageKey: true } as const;

export function createSkillRepository(db: DbTx) {
  return {
    /** Enabled skills by name, each with its file entries by path. */
    async listEnabled(workspaceId: string): Promise<SkillRecord[]> {
      const skills = await db.skill.findMany({
        where: { workspaceId, enabled: true },
        select: {
          name: true,
          description: true,
          version: true,
          source: true,
          official: true,
          allowedTools: true,
          compatibility: true,
          files: { select: { path: true, kind: true, size: true } },
        },
      });
      for (const skill of skills) skill.files.sort(byCodePoints((file) => file.path));
      return skills.sort(byCodePoints((skill) => skill.name));
    },

    /** Every skill's name in every workspace, disabled ones included, for the admin check that spans workspaces. */
    listAllNames(): Promise<Array<{ workspaceId: string; id: string; name: string }>> {
      return db.skill.findMany({ select: { workspaceId: true, id: true, name: true }, });
    },

    /** Every skill file's path in every workspace, by its skill's id, for the same check. */
    listAllFilePaths(): Promise<Array<{ workspaceId: string; skillId: string; path: string }>> {
      return db.skillFile.findMany({ select: { workspaceId: true, skillId: true, path: true } });
    },

    async findEnabledId(workspaceId: string, name: string): Promise<string | null> {
      const skill = await db.skill.findFirst({ where: { workspaceId, name, enabled: true }, select: { id: true } });
      return skill?.id ?? null;
    },

    /** The file at exactly this path: no normalisation, so `./x` or `a/../x` never match. */
    findFile(workspaceId: string, skillId: string, path: string): Promise<SkillFileRecord | null> {
      return db.skillFile.findFirst({ where: { workspaceId, skillId, path }, select: FILE_FIELDS });
    },

    /** Every skill of the workspace, disabled ones included, with its files' storage keys: what an export writes. */
    async listForExport(workspaceId: string): Promise<Array<SkillUpsert & { id: string }>> {
      const skills = await db.skill.findMany({
        where: { workspaceId },
        select: {
          id: true,
          name: true,
          description: true,
          version: true,
          source: true,
          official: true,
          enabled: true,
          allowedTools: true,
          compatibility: true,
          files: { select: FILE_FIELDS },
        },
      });
      for (const skill of skills) skill.files.sort(byCodePoints((file) => file.path));
      return skills.sort(byCodePoints((skill) => skill.name));
    },

    /**
     * Deletes the skill (enabled or not) and its files; returns the storage keys its files held
     * that no other file of the workspace still points at (files are stored by content, so two
     * skills may share bytes), or null when the workspace has no skill of that name.
     */
    async deleteByName(workspaceId: string, name: string): Promise<string[] | null> {
      const skill = await db.skill.findUnique({ where: { workspaceId_name: { workspaceId, name } }, select: { id: true, files: { select: { storageKey: true } } } });
      if (!skill) return null;
      await db.skill.deleteMany({ where: { workspaceId, id: skill.id } });
      const keys = [...new Set(skill.files.map((file) => file.storageKey))];
      const stillUsed = await db.skillFile.findMany({ where: { workspaceId, storageKey: { in: keys } }, select: { storageKey: true } });
      const used = new Set(stillUsed.map((file) => file.storageKey));
      return keys.filter((key) => !used.has(key));
    },

    /** Creates the skill or replaces its fields and its files. */
    async upsertByName(workspaceId: string, skill: SkillUpsert): Promise<void> {
      const { files, ...fields } = skill;
      // Found, then updated or created: see the data sources' upsertByName (the enum column `source`).
      const where = { workspaceId_name: { workspaceId, name: skill.name } };
      const found = await db.skill.findUnique({ where, select: { id: true } });
      const { id: skillId } = found
        ? await db.skill.update({ where, data: fields, select: { id: true } })
        : await db.skill.create({ data: { id: newId("skl"), workspaceId, ...fields }, select: { id: true } });
      await db.skillFile.deleteMany({ where: { workspaceId, skillId } });
      await db.skillFile.createMany({ data: files.map((file) => ({ id: newId("skf"), workspaceId, skillId, ...file })) });
    },
  };
}

export type SkillRepository = ReturnType<typeof createSkillRepository>;
