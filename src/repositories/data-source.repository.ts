import type { z } from "zod";
import type { TableAnnotationSchema, TableSchemaEntrySchema } from "../contracts/data-sources";
import type { DbTx } from "../db/database";
import { Prisma } from "../generated/prisma/client";
import type { ConnectorType, DataSourceStatus } from "../generated/prisma/enums";
import { newId } from "../lib/ids";
import { byCodePoints } from "../lib/code-point-order";

export type TableSchemaEntry = z.infer<typeof TableSchemaEntrySchema>;
export type TableAnnotation = z.infer<typeof TableAnnotationSchema>;

/** A data source's metadata. connection_ref is deliberately not selected: it never leaves the database. */
export interface DataSourceRecord {
  id: string;
  name: string;
  connectorType: ConnectorType;
  status: DataSourceStatus;
  schema: TableSchemaEntry[] | null;
  tableAnnotations: TableAnnotation[] | null;
  createdAt: Date;
}

export interface DataSourceUpsert {
  name: string;
  connectorType: ConnectorType;
  status: DataSourceStatus;
  schema?: TableSchemaEntry[];
  tableAnnotations?: TableAnnotation[];
  createdAt: Date;
}

const METADATA_FIELDS = {
  id: true,
  name: true,
  connectorType: true,
  status: true,
  schema: true,
  tableAnnotations: true,
  createdAt: true,
} as const;

// The JSON columns hold what the import contract validated, so they read back as those shapes.
const toRecord = (row: Omit<DataSourceRecord, "schema" | "tableAnnotations"> & { schema: unknown; tableAnnotations: unknown }) =>
  row as DataSourceRecord;

const jsonOrNull = (value: unknown) => (value === undefined ? Prisma.DbNull : (value as Prisma.InputJsonValue));

export function createDataSourceRepository(db: DbTx) {
  return {
    async listByWorkspace(workspaceId: string): Promise<DataSourceRecord[]> {
      const rows = await db.dataSource.findMany({ where: { workspaceId }, select: METADATA_FIELDS });
      return rows.map(toRecord).sort(byCodePoints((source) => source.name));
    },

    /** Every data source's name in every workspace, for the admin check that spans workspaces. */
    listAllNames(): Promise<Array<{ workspaceId: string; name: string }>> {
      return db.dataSource.findMany({ select: { workspaceId: true, name: true }, });
    },

    async findByName(workspaceId: string, name: string): Promise<DataSourceRecord | null> {
      const row = await db.dataSource.findUnique({ where: { workspaceId_name: { workspaceId, name } }, select: METADATA_FIELDS });
      return row && toRecord(row);
    },

    /** Deletes the source with its query patterns and error learnings (foreign-key cascades); false when there is none. */
    async deleteByName(workspaceId: string, name: string): Promise<boolean> {
      const deleted = await db.dataSource.deleteMany({ where: { workspaceId, name } });
      return deleted.count > 0;
    },

    /** Creates the source or replaces its metadata; returns its id. An existing connection_ref is kept. */
    async upsertByName(workspaceId: string, source: DataSourceUpsert): Promise<string> {
      const fields = {
        connectorType: source.connectorType,
        status: source.status,
        schema: jsonOrNull(source.schema),
        tableAnnotations: jsonOrNull(source.tableAnnotations),
        createdAt: source.createdAt,
      };
      // Found, then updated or created, rather than one INSERT … ON CONFLICT DO UPDATE: that sets
      // the enum columns through a cast Citus refuses there (not IMMUTABLE). Imports, the only
      // writers, hold the workspace's lock.
      const where = { workspaceId_name: { workspaceId, name: source.name } };
      const found = await db.dataSource.findUnique({ where, select: { id: true } });
      if (found) {
        await db.dataSource.update({ where, data: fields, select: { id: true } });
        return found.id;
      }
      const row = await db.dataSource.create({ data: { id: newId("ds"), workspaceId, name: source.name, ...fields }, select: { id: true } });
      return row.id;
    },
  };
}

export type DataSourceRepository = ReturnType<typeof createDataSourceRepository>;
