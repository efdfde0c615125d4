import { createHash } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import pg from 'pg';

/**
 * Statements planned once per connection (decision 039). PostgreSQL plans every unnamed
 * statement again, and the publisher's batch statements (an init's confirmation, its answer's
 * settle: a dozen CTEs each) take as long to plan as to run, hundreds of times a minute at a due
 * instant. A statement whose text begins with `prepared(name)`
 * goes to PostgreSQL as a named prepared statement on each pooled connection (node-postgres
 * parses it once per connection; PostgreSQL keeps its plan, generic after five runs when that
 * costs no more). On PGlite the mark is a comment. Only for statements whose text never changes
 * (values as parameters): each distinct text is a statement kept on every connection.
 */
export function prepared(name: string): RawBuilder<unknown> {
  if (!/^[a-z][a-z0-9_]*$/.test(name)) throw new Error(`prepared statement name ${name}`);
  return sql.raw(`${MARK}${name} */`);
}

const MARK = '/* prepared: ';

/**
 * The name a marked text is prepared under: the mark's name and a digest of the whole text, so
 * that two texts under one name (node-postgres refuses to reuse a name for another text) never
 * meet on a connection. Undefined for a text without the mark.
 */
export function preparedName(text: string): string | undefined {
  if (!text.startsWith(MARK)) return undefined;
  const end = text.indexOf(' */', MARK.length);
  if (end < 0) return undefined;
  const digest = createHash('sha256').update(text).digest('hex').slice(0, 12);
  return `${text.slice(MARK.length, end)}_${digest}`;
}

/**
 * node-postgres's Client, sending marked statements (`prepared`) as named ones: for `pg.Pool`'s
 * `Client` option. Everything else (Kysely's other statements, cursors, pg-boss) goes as before.
 */
export class PreparingClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    /** Marked text → its name, so that each is digested once per connection. */
    const names = new Map<string, string>();
    const query = this.query.bind(this) as (...args: unknown[]) => unknown;
    // node-postgres's overloads: only `query(text, values)` with a marked text and no callback
    // changes.
    this.query = ((...args: unknown[]) => {
      const [text, values, callback] = args;
      if (
        typeof text === 'string' &&
        text.startsWith(MARK) &&
        (values === undefined || Array.isArray(values)) &&
        callback === undefined
      ) {
        const name = names.get(text) ?? preparedName(text);
        if (name !== undefined) {
          names.set(text, name);
          return query({ name, text, values });
        }
      }
      return query(...args);
    }) as pg.Client['query'];
  }
}
