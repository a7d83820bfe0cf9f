import { dataSourceNameProblem, skillNameProblem } from "../contracts/names";
import { byCodePoints } from "../lib/code-point-order";
import type { DataSourceRepository } from "../repositories/data-source.repository";
import type { SkillRepository } from "../repositories/skill.repository";
import type { WorkspaceRepository } from "../repositories/workspace.repository";

export interface NameViolation {
  workspaceId: string;
  workspaceName: string;
  kind: "skill" | "dataSource";
  name: string;
  problem: string;
}

interface NameCheckDeps {
  workspaces: Pick<WorkspaceRepository, "listAll">;
  skills: Pick<SkillRepository, "listAllNames">;
  dataSources: Pick<DataSourceRepository, "listAllNames">;
}

/**
 * Rows stored before the name grammars existed may break them. They are reported for a person to
 * rename, never rewritten here: agents may already have saved them under the old name.
 */
export function createNameCheckService({ workspaces, skills, dataSources }: NameCheckDeps) {
  return {
    /** In workspace order (oldest first), skills before data sources, each by name. Three statements, whatever the number of workspaces. */
    async findViolations(): Promise<NameViolation[]> {
      const [all, skillNames, dataSourceNames] = await Promise.all([workspaces.listAll(), skills.listAllNames(), dataSources.listAllNames()]);
      // By workspace, each list in code-point order of the names (as the lists of the API show them).
      const violationsOf = (rows: Array<{ workspaceId: string; name: string }>, problemOf: (name: string) => string | undefined) => {
        const found = new Map<string, Array<{ name: string; problem: string }>>();
        for (const { workspaceId, name } of [...rows].sort(byCodePoints((row) => row.name))) {
          const problem = problemOf(name);
          if (problem !== undefined) found.set(workspaceId, [...(found.get(workspaceId) ?? []), { name, problem }]);
        }
        return found;
      };
      const bySkills = violationsOf(skillNames, skillNameProblem);
      const byDataSources = violationsOf(dataSourceNames, dataSourceNameProblem);
      return all.flatMap((workspace) => [
        ...(bySkills.get(workspace.id) ?? []).map((found) => ({ workspaceId: workspace.id, workspaceName: workspace.name, kind: "skill" as const, ...found })),
        ...(byDataSources.get(workspace.id) ?? []).map((found) => ({ workspaceId: workspace.id, workspaceName: workspace.name, kind: "dataSource" as const, ...found })),
      ]);
    },
  };
}

export type NameCheckService = ReturnType<typeof createNameCheckService>;
