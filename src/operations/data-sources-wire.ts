import type { DataSourceService } from "../services/data-source.service";

type DataSource = Awaited<ReturnType<DataSourceService["list"]>>[number];
type QueryIntelligence = Awaited<ReturnType<DataSourceService["queryIntelligence"]>>;

/** The wire form of the data-source list; REST and MCP answer with exactly this. */
export const toDataSourcesResponse = (sources: DataSource[]) => ({
  items: sources.map((source) => ({
    name: source.name,
    connectorType: source.connectorType,
    status: source.status,
    schema: source.schema ?? undefined,
    tableAnnotations: source.tableAnnotations ?? undefined,
    createdAt: source.createdAt.getTime(),
  })),
});

/** The wire form of a data source's query intelligence; REST and MCP answer with exactly this. */
export const toQueryIntelligenceResponse = (found: QueryIntelligence) => ({
  patterns: found.patterns.map((pattern) => ({
    question: pattern.question,
    sql: pattern.sql,
    resultSummary: pattern.resultSummary ?? undefined,
    successCount: pattern.successCount,
    lastUsedAt: pattern.lastUsedAt?.getTime(),
  })),
  errorLearnings: found.errorLearnings.map((learning) => ({
    failedSql: learning.failedSql,
    errorMessage: learning.errorMessage,
    learning: learning.learning,
    createdAt: learning.createdAt.getTime(),
  })),
});
