import { customType, timestamp } from "drizzle-orm/pg-core";

/** created_at, as every table has it. */
export const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

/** PostgreSQL's full-text document type, which Drizzle has no column for. */
export const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });
