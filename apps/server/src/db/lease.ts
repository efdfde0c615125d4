import { sql } from 'kysely';

/**
 * The end of a lease of `leaseMs` from now, on the database's clock, so processes with drifting
 * clocks agree on when a lock row expires (token refresh locks, upload locks).
 */
export const leaseEnd = (leaseMs: number) =>
  sql<Date>`now() + ${Math.ceil(leaseMs)}::integer * interval '1 millisecond'`;
