import { dataSourceNameProblem, skillFilePathProblem, skillNameProblem } from "../contracts/names";
import { byCodePoints, compareCodePoints } from "../lib/code-point-order";
import type { DataSourceRepository } from "../repositories/data-source.repository";
import type { SkillRepository } from "../repositories/skill.repository";
import type { WorkspaceRepository } from "../repositories/workspace.repository";

export type NameViolation = {
  workspaceId: string;
  workspaceName: string;
  name: string;
  problem: string;
} & ({ kind: "skill" | "dataSource" } | { kind: "skillFile"; /** The name of the skill the file belongs to. */ skill: string });

interface NameCheckDeps {
  workspaces: Pick<WorkspaceRepository, "listAll">;
  skills: Pick<SkillRepository, "listAllNames" | "listAllFilePaths">;
  dataSources: Pick<DataSourceRepository, "listAllNames">;
}

type Found = { name: string; problem: string; skill?: string };

/** By workspace, each list in code-point order (as the lists of the API show them). */
function violationsOf<Row extends { workspaceId: string }>(rows: Row[], problemOf: (row: Row) => Found | undefined, order: (a: Row, b: Row) => number) {
  const found = new Map<string, Found[]>();
  for (const row of [...rows].sort(order)) {
    const violation = problemOf(row);
    if (violation !== undefined) found.set(row.workspaceId, [...(found.get(row.workspaceId) ?? []), violation]);
  }
  return found;
}

const named = (name: string, problem: string | undefined): Found | undefined => (problem === undefined ? undefined : { name, problem });

/**
 * Rows stored before the grammars existed may break them. They are reported for a person to
 * rename, never rewritten here: agents may already have saved them under the old name.
 */
export function createNameCheckService({ workspaces, skills, dataSources }: NameCheckDeps) {
  return {
    /**
     * In workspace order (oldest first): skills by name, then skill files by skill and path, then
     * data sources by name. Four statements, whatever the number of workspaces.
     */
    async findViolations(): Promise<NameViolation[]> {
      const [all, skillNames, filePaths, dataSourceNames] = await Promise.all([
        workspaces.listAll(),
        skills.listAllNames(),
        skills.listAllFilePaths(),
        dataSources.listAllNames(),
      ]);
      const skillNameOf = new Map(skillNames.map((skill) => [`${skill.workspaceId}/${skill.id}`, skill.name]));
      const files = filePaths.map((file) => ({ ...file, skill: skillNameOf.get(`${file.workspaceId}/${file.skillId}`) ?? file.skillId }));
      const byName = byCodePoints<{ name: string }>(({ name }) => name);
      const bySkills = violationsOf(skillNames, ({ name }) => named(name, skillNameProblem(name)), byName);
      const byFiles = violationsOf(
        files,
        ({ skill, path }) => {
          const problem = skillFilePathProblem(path);
          return problem === undefined ? undefined : { skill, name: path, problem };
        },
        (a, b) => compareCodePoints(a.skill, b.skill) || compareCodePoints(a.path, b.path),
      );
      const byDataSources = violationsOf(dataSourceNames, ({ name }) => named(name, dataSourceNameProblem(name)), byName);
      return all.flatMap((workspace): NameViolation[] => {
        const where = { workspaceId: workspace.id, workspaceName: workspace.name };
        return [
          ...(bySkills.get(workspace.id) ?? []).map(({ name, problem }) => ({ ...where, kind: "skill" as const, name, problem })),
          ...(byFiles.get(workspace.id) ?? []).map(({ name, problem, skill }) => ({ ...where, kind: "skillFile" as const, skill: skill!, name, problem })),
          ...(byDataSources.get(workspace.id) ?? []).map(({ name, problem }) => ({ ...where, kind: "dataSource" as const, name, problem })),
        ];
      });
    },
  };
}

export type NameCheckService = ReturnType<typeof createNameCheckService>;
