import { Prisma } from "../generated/prisma/client";

/**
 * The stemmed lexemes of a natural-language query, as a SQL text[]: "Which tables hold churn?"
 * → {tabl,hold,churn}. Stop words drop out, so an all-stop-word query has none.
 */
export function queryLexemes(text: string): Prisma.Sql {
  return Prisma.sql`tsvector_to_array(to_tsvector('english', ${text}))`;
}

/**
 * A tsquery that matches documents containing ANY of the lexemes (plainto_tsquery would demand
 * all of them, which a conversational question rarely satisfies). Each lexeme is quoted so that
 * characters meaningful to tsquery syntax cannot break the query.
 */
export function anyLexemeTsQuery(lexemes: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`to_tsquery('simple', array_to_string(ARRAY(
    SELECT '''' || replace(replace(lexeme, '\\', '\\\\'), '''', '''''') || ''''
    FROM unnest(${lexemes}) AS lexeme
  ), ' | '))`;
}

/** The query lexemes a stored search_document contains: how much of the query it covers, and why it matched. */
export function matchedLexemes(lexemes: Prisma.Sql, documentColumn: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`ARRAY(SELECT unnest(${lexemes}) INTERSECT SELECT unnest(tsvector_to_array(${documentColumn})))`;
}
