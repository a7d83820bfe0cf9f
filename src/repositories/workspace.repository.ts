import type { DbTx } from "../db/database";
import { newId } from "../lib/ids";

export interface WorkspaceRecord {
  id: string;
  organizationId: string;
  name: string;
  context: string | null;
  createdAt: Date;
}

const WORKSPACE_FIELDS = { id: true, organizationId: true, name: true, context: true, createdAt: true } as const;

export function createWorkspaceRepository(db: DbTx) {
  return {
    /** The organization with this name, created when none has it. */
    async findOrCreateOrganization(name: string): Promise<{ id: string; name: string }> {
      const existing = await db.organization.findFirst({ where: { name }, orderBy: { createdAt: "asc" } });
      if (existing) return { id: existing.id, name: existing.name };
      return db.organization.create({ data: { id: newId("org"), name }, select: { id: true, name: true } });
    },

    create(data: { organizationId: string; name: string; context: string | null }): Promise<WorkspaceRecord> {
      return db.workspace.create({ data: { id: newId("ws"), ...data }, select: WORKSPACE_FIELDS });
    },

    findById(workspaceId: string): Promise<WorkspaceRecord | null> {
      return db.workspace.findUnique({ where: { id: workspaceId }, select: WORKSPACE_FIELDS });
    },

    async update(workspaceId: string, data: { name?: string; context?: string | null }): Promise<WorkspaceRecord | null> {
      const result = await db.workspace.updateMany({ where: { id: workspaceId }, data });
      if (result.count === 0) return null;
      return db.workspace.findUnique({ where: { id: workspaceId }, select: WORKSPACE_FIELDS });
    },

    /**
     * Serialises writers of one workspace until the transaction ends: two imports upserting the
     * same names would otherwise both insert and one would fail on the unique constraint.
     */
    async lockForWriting(workspaceId: string): Promise<void> {
      await db.$queryRaw`SELECT pg_advisory_xact_lock(hashtext(${workspaceId}))::text`;
    },

    /** Every workspace's id and name, oldest first: the admin checks that span workspaces start here. */
    listAll(): Promise<Array<{ id: string; name: string }>> {
      return db.workspace.findMany({ select: { id: true, name: true }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    },

    count(): Promise<number> {
      return db.workspace.count();
    },
  };
}

export type WorkspaceRepository = ReturnType<typeof createWorkspaceRepository>;
