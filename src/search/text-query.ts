import { Prisma } from "../generated/prisma/client";

/**
 * The lexemes of a natural-language query, as a SQL text[]: its stemmed English words ("Which
 * tables hold churn?" → {tabl,hold,churn}) plus its identifiers whole and in parts, spelled as the
 * search documents spell them (`fct_orders` → fctorders, fct, orders; `DAU/MAU` → daumau, dau,
 * mau). Stop words drop out, so an all-stop-word query has none.
 */
export function queryLexemes(text: string | Prisma.Sql): Prisma.Sql {
  return Prisma.sql`tsvector_to_array(to_tsvector('english', ${text}) || to_tsvector('simple', search_identifier_text(${text})))`;
}

/**
 * A tsquery that matches documents containing ANY of the lexemes (plainto_tsquery would demand
 * all of them, which a conversational question rarely satisfies).
 */
export function anyLexemeTsQuery(lexemes: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`to_tsquery('simple', array_to_string(ARRAY(
    SELECT '''' || replace(replace(lexeme, '\\', '\\\\'), '''', '''''') || ''''
    FROM unnest(${lexemes}) AS lexeme
  ), ' | '))`;
}
