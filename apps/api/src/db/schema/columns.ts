import { type AnyPgColumn, customType, timestamp, uuid } from "drizzle-orm/pg-core";

/** id, a random uuid, the primary key of most tables. */
export const id = () => uuid("id").primaryKey().defaultRandom();

/** A moment, stored as every moment is: a timestamp with time zone. */
export const timestamptz = <TName extends string>(name: TName) => timestamp(name, { withTimezone: true });

/** created_at, as every table has it. */
export const createdAt = () => timestamptz("created_at").notNull().defaultNow();

/** updated_at, as every table whose rows change has it (the writers set it; the default is the insert's time). */
export const updatedAt = () => timestamptz("updated_at").notNull().defaultNow();

/** created_at and updated_at, in that order, as every table whose rows change has them. */
export const timestamps = () => ({ createdAt: createdAt(), updatedAt: updatedAt() });

/** A reference to the row this one belongs to: deleting that row deletes this one. */
export const refCascade = <TName extends string>(name: TName, parent: () => AnyPgColumn) =>
  uuid(name).references(parent, { onDelete: "cascade" });

/** A reference to a row this one outlives: deleting that row empties the column. */
export const refSetNull = <TName extends string>(name: TName, target: () => AnyPgColumn) =>
  uuid(name).references(target, { onDelete: "set null" });

/** PostgreSQL's full-text document type, which Drizzle has no column for. */
export const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/** Binary data (bytea); the embedded driver reads it as a Uint8Array, node-postgres as a Buffer. */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => Buffer.from(value),
});
