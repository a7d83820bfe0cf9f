import "dotenv/config";
import { defineConfig } from "prisma/config";

// The CLI reads DATABASE_URL only for `migrate deploy` against a managed Postgres; generating the
// client needs no database, and the embedded database is migrated by the app itself.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "" },
});
