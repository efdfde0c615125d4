// Instants as the publisher's statements take them from the database's clock (DbClock).
import { sql, type Expression } from 'kysely';

export const now = () => sql<Date>`clock_timestamp()`;
export const ms = (value: number) => sql`${`${value} milliseconds`}::interval`;
export const microsecond = sql`interval '1 microsecond'`;
/**
 * An instant as the publisher takes it from the database: epoch milliseconds, to the microsecond
 * (DbClock's readings, due times, the moment a slot frees).
 */
export const epochMsOf = (instant: Expression<unknown>) =>
  sql<number>`(extract(epoch from ${instant}) * 1000)::float8`;
/**
 * The database's clock when the statement started, for DbClock.observe: read after the
 * statement left and before its answer arrived.
 */
export const clockReading = epochMsOf(sql`statement_timestamp()`);
