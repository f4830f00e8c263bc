/** The types of check-queries.mjs, for its tests. */
export interface LoggedStatement {
  sql: string;
  confined: boolean;
  origin: string;
}
export function readLog(folder: string): LoggedStatement[];
export function tablesOf(text: string): Set<string>;
export function violations(statements: LoggedStatement[], tenantTables: Set<string>): LoggedStatement[];
export function tenantTablesOfMigrations(): Promise<Set<string>>;
