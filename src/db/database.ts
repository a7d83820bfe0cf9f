import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { Pool } from "pg";
import { PrismaClient } from "../generated/prisma/client";
import type { EmbeddedDatabase } from "./embedded-database";

export type Db = PrismaClient;
/** What a repository may run: the client itself or the client of an interactive transaction. */
export type DbTx = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

export interface Database {
  kind: "embedded" | "postgres";
  prisma: Db;
  /** Answers when the database answers; used by the health check. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export function embeddedDatabase(embedded: EmbeddedDatabase): Database {
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(embedded.pg) });
  return {
    kind: "embedded",
    prisma,
    ping: async () => {
      await embedded.pg.query("SELECT 1");
    },
    close: async () => {
      await prisma.$disconnect();
      await embedded.close();
    },
  };
}

export function postgresDatabase(connectionString: string): Database {
  const pool = new Pool({ connectionString });
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    kind: "postgres",
    prisma,
    ping: async () => {
      await pool.query("SELECT 1");
    },
    close: async () => {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
