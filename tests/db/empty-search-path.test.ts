import type { Database } from "../../src/db/database";
import { openTestDatabase } from "../support/test-app";

// pg_restore computes generated columns with an empty search_path: the functions the search
// documents are made with must find what they call there, or a logical dump does not restore
// (migration `distributable_schema`, docs/deployment.md §7).

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

describe("the search documents' functions under an empty search_path", () => {
  it("compute the same documents as with the usual one", async () => {
    const prisma = database.prisma;
    const documents = () =>
      prisma.$queryRawUnsafe<Array<{ words: string; sql: string }>>(
        `SELECT public.search_field('Churn of fct_orders by plan', 'A')::text AS words, public.search_sql_field('SELECT plan FROM fct_orders', 'B')::text AS sql`,
      );
    const usual = await documents();
    const [, empty] = await prisma.$transaction([prisma.$executeRawUnsafe(`SET LOCAL search_path = ''`), documents()]);
    expect(empty).toEqual(usual);
    expect(usual[0]!.words).toContain("'fctorders'");
  });
});
