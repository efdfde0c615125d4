/**
 * What @tus/server answers for a refused request, from a hook or a datastore: it reads
 * `status_code` and `body`. An Error, so that stack traces and `throw` checks keep working.
 */
export class TusHookError extends Error {
  constructor(
    readonly status_code: number,
    readonly body: string,
  ) {
    super(body.trim());
    this.name = 'TusHookError';
  }

  /** One of tus's own answers (its `ERRORS`), as an Error. */
  static of(known: { status_code: number; body: string }): TusHookError {
    return new TusHookError(known.status_code, known.body);
  }
}
