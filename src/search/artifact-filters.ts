import { Prisma } from "../generated/prisma/client";

/**
 * What a search of artifacts may be narrowed to (the optional parameters of searchArtifacts,
 * src/contracts/artifacts.ts). Every condition given must hold; bounds are inclusive. A filter
 * narrows the artifacts searched, inside both candidate statements, before anything is ranked:
 * `limit` still means the best matching artifacts, and an artifact scores the same with or without
 * one (the word statistics are the whole collection's).
 */
export interface ArtifactFilters {
  createdAfter?: Date;
  createdBefore?: Date;
  validatedAfter?: Date;
  validatedBefore?: Date;
  /** A `name` among the artifact's `dataSources`, exactly as written. */
  dataSource?: string;
  /** The least `confidence`, 0 to 1. */
  minConfidence?: number;
}

/** Whether any filter is given: a search without one runs exactly the statements it always has. */
export function isFiltered(filters: ArtifactFilters | undefined): filters is ArtifactFilters {
  return filters !== undefined && Object.values(filters).some((value) => value !== undefined);
}

const time = (value: Date) => Prisma.sql`${value.toISOString()}::timestamptz`;

/** The data source condition: `data_sources` (jsonb) holds an entry with this name, whatever its type or id. */
const citesSource = (alias: Prisma.Sql, name: string) => Prisma.sql`${alias}.data_sources @> jsonb_build_array(jsonb_build_object('name', ${name}::text))`;

/**
 * The filters as one SQL condition on the artifacts row of `alias`. An artifact never validated
 * (validated_at null) meets no validated bound.
 */
export function artifactFilterCondition(filters: ArtifactFilters, alias = "t"): Prisma.Sql {
  const t = Prisma.raw(alias);
  const conditions: Prisma.Sql[] = [];
  if (filters.createdAfter) conditions.push(Prisma.sql`${t}.created_at >= ${time(filters.createdAfter)}`);
  if (filters.createdBefore) conditions.push(Prisma.sql`${t}.created_at <= ${time(filters.createdBefore)}`);
  if (filters.validatedAfter) conditions.push(Prisma.sql`${t}.validated_at >= ${time(filters.validatedAfter)}`);
  if (filters.validatedBefore) conditions.push(Prisma.sql`${t}.validated_at <= ${time(filters.validatedBefore)}`);
  if (filters.dataSource !== undefined) conditions.push(citesSource(t, filters.dataSource));
  if (filters.minConfidence !== undefined) conditions.push(Prisma.sql`${t}.confidence >= ${filters.minConfidence}::float8`);
  return conditions.length > 0 ? Prisma.join(conditions, " AND ") : Prisma.sql`true`;
}

/**
 * The filters as the trailing arguments of `nearest_matching_in_workspace_index` (migration
 * `filtered_search`), null where not given, in its order.
 */
export function artifactFilterArguments(filters: ArtifactFilters): Prisma.Sql {
  const at = (value: Date | undefined) => (value ? time(value) : Prisma.sql`NULL::timestamptz`);
  return Prisma.sql`${at(filters.createdAfter)}, ${at(filters.createdBefore)}, ${at(filters.validatedAfter)}, ${at(filters.validatedBefore)},
    ${filters.dataSource ?? null}::text, ${filters.minConfidence ?? null}::float8`;
}
