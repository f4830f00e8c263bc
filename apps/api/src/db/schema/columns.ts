import { customType, timestamp } from "drizzle-orm/pg-core";

/** created_at, as every table has it. */
export const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

/** PostgreSQL's full-text document type, which Drizzle has no column for. */
export const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/** Binary data (bytea); the embedded driver reads it as a Uint8Array, node-postgres as a Buffer. */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => Buffer.from(value),
});
