import type { DbTx } from "../db/database";

export interface ConnectedAppRecord {
  id: string;
  workspaceId: string;
  grantedBy: string;
  clientId: string;
  clientName: string;
  redirectHost: string;
  scopes: string[];
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

const APP_FIELDS = {
  id: true,
  workspaceId: true,
  grantedBy: true,
  clientId: true,
  clientName: true,
  redirectHost: true,
  scopes: true,
  createdAt: true,
  lastUsedAt: true,
  revokedAt: true,
} as const;

export function createConnectedAppRepository(db: DbTx) {
  /** The workspace of a grant known by id alone (grant_workspaces, on every node of a Citus cluster). */
  async function workspaceOfGrant(id: string): Promise<string | null> {
    return (await db.grantWorkspace.findUnique({ where: { grantId: id }, select: { workspaceId: true } }))?.workspaceId ?? null;
  }

  /** A grant, read where its workspace lives. */
  function findInWorkspace(workspaceId: string, id: string): Promise<ConnectedAppRecord | null> {
    return db.connectedApp.findUnique({ where: { workspaceId_id: { workspaceId, id } }, select: APP_FIELDS });
  }

  return {
    /** The grant's workspace first, then the grant: a grant never exists without the row its tokens find it by. */
    async create(workspaceId: string, data: Omit<ConnectedAppRecord, "workspaceId" | "createdAt" | "lastUsedAt" | "revokedAt"> & { reviewerId: string }): Promise<ConnectedAppRecord> {
      await db.grantWorkspace.create({ data: { grantId: data.id, workspaceId }, select: { grantId: true } });
      return db.connectedApp.create({ data: { workspaceId, ...data }, select: APP_FIELDS });
    },

    listByWorkspace(workspaceId: string): Promise<ConnectedAppRecord[]> {
      return db.connectedApp.findMany({ where: { workspaceId }, select: APP_FIELDS, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
    },

    /**
     * A grant found by its id alone: what an access token names, before the workspace is known. Its
     * workspace from grant_workspaces (on every node of a Citus cluster), then the grant on that
     * workspace's node.
     */
    async findById(id: string): Promise<ConnectedAppRecord | null> {
      const workspaceId = await workspaceOfGrant(id);
      return workspaceId === null ? null : findInWorkspace(workspaceId, id);
    },

    workspaceOfGrant,
    findInWorkspace,

    /** The live grants one account approved in the workspace. */
    async liveIdsGrantedBy(workspaceId: string, reviewerId: string): Promise<string[]> {
      const rows = await db.connectedApp.findMany({ where: { workspaceId, reviewerId, revokedAt: null }, select: { id: true } });
      return rows.map((row) => row.id);
    },

    /** Sets revokedAt once. Null when the workspace has no such grant. */
    async revoke(workspaceId: string, id: string, at: Date): Promise<ConnectedAppRecord | null> {
      await db.connectedApp.updateMany({ where: { workspaceId, id, revokedAt: null }, data: { revokedAt: at } });
      return db.connectedApp.findUnique({ where: { workspaceId_id: { workspaceId, id } }, select: APP_FIELDS });
    },

    async touchLastUsed(workspaceId: string, id: string, at: Date): Promise<void> {
      const aMinuteAgo = new Date(at.getTime() - 60_000);
      await db.connectedApp.updateMany({
        where: { workspaceId, id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: aMinuteAgo } }] },
        data: { lastUsedAt: at },
      });
    },
  };
}

export type ConnectedAppRepository = ReturnType<typeof createConnectedAppRepository>;
