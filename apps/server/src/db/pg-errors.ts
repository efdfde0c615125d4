/** PostgreSQL's SQLSTATE of an error from either driver (pg, PGlite); null when it has none. */
export function pgErrorCode(error: unknown): string | null {
  return typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    typeof error.code === 'string'
    ? error.code
    : null;
}

/** A row refers to one that does not exist (any more): 23503 foreign_key_violation. */
export function isForeignKeyViolation(error: unknown): boolean {
  return pgErrorCode(error) === '23503';
}

/** A write would duplicate a unique key (another writer got there first): 23505 unique_violation. */
export function isUniqueViolation(error: unknown): boolean {
  return pgErrorCode(error) === '23505';
}
