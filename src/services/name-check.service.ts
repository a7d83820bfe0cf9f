import { dataSourceNameProblem, skillNameProblem } from "../contracts/names";
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
  skills: Pick<SkillRepository, "listNames">;
  dataSources: Pick<DataSourceRepository, "listNames">;
}

/**
 * Rows stored before the name grammars existed may break them. They are reported for a person to
 * rename, never rewritten here: agents may already have saved them under the old name.
 */
export function createNameCheckService({ workspaces, skills, dataSources }: NameCheckDeps) {
  return {
    async findViolations(): Promise<NameViolation[]> {
      const violations: NameViolation[] = [];
      for (const workspace of await workspaces.listAll()) {
        const found = (kind: NameViolation["kind"], problemOf: (name: string) => string | undefined) => (name: string) => {
          const problem = problemOf(name);
          if (problem !== undefined) violations.push({ workspaceId: workspace.id, workspaceName: workspace.name, kind, name, problem });
        };
        (await skills.listNames(workspace.id)).forEach(found("skill", skillNameProblem));
        (await dataSources.listNames(workspace.id)).forEach(found("dataSource", dataSourceNameProblem));
      }
      return violations;
    },
  };
}

export type NameCheckService = ReturnType<typeof createNameCheckService>;
