import { DomainError, notFound } from "../domain/errors";
import type { Logger } from "../lib/logger";
import type { SkillFileRecord, SkillRepository } from "../repositories/skill.repository";
import type { FileStorage } from "../storage/file-storage";
import { callStorage } from "./storage-call";

export interface SkillFile {
  path: string;
  kind: SkillFileRecord["kind"];
  size: number;
  /** Inline text of a text-like file; null for binaries. */
  content: string | null;
  /** Time-limited download address of a binary; null otherwise. */
  url: string | null;
}

export function createSkillService(deps: {
  skills: Pick<SkillRepository, "listEnabled" | "findEnabledId" | "findFile">;
  storage: Pick<FileStorage, "get" | "downloadUrl">;
  downloadUrlTtlSeconds: number;
  logger: Logger;
}) {
  return {
    /** Enabled skills only: a disabled skill is invisible to agents. */
    list: (workspaceId: string) => deps.skills.listEnabled(workspaceId),

    async getFile(workspaceId: string, skillName: string, path: string): Promise<SkillFile> {
      const skillId = await deps.skills.findEnabledId(workspaceId, skillName);
      if (!skillId) throw notFound(`No enabled skill named "${skillName}" in this workspace`);
      const file = await deps.skills.findFile(workspaceId, skillId, path);
      if (!file) throw notFound(`Skill "${skillName}" has no file at path "${path}"`);
      const entry = { path: file.path, kind: file.kind, size: file.size };
      if (file.kind === "binary") {
        const url = await callStorage(deps.logger, { workspaceId, storageKey: file.storageKey }, () =>
          deps.storage.downloadUrl(file.storageKey, {
            filename: file.path.slice(file.path.lastIndexOf("/") + 1),
            contentType: file.contentType,
            expiresInSeconds: deps.downloadUrlTtlSeconds,
          }),
        );
        return { ...entry, content: null, url };
      }
      const bytes = await callStorage(deps.logger, { workspaceId, storageKey: file.storageKey }, () => deps.storage.get(file.storageKey));
      if (!bytes) throw new DomainError("dependency_failed", `File storage does not hold the bytes of "${path}"`);
      return { ...entry, content: Buffer.from(bytes).toString("utf8"), url: null };
    },
  };
}

export type SkillService = ReturnType<typeof createSkillService>;
