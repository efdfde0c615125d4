/** What the stores answer: a value, or an error the routes turn into TikTok's error shape. */
export type Result<TValue, TError> = { ok: true; value: TValue } | { ok: false; error: TError };

export function ok<TValue>(value: TValue): { ok: true; value: TValue } {
  return { ok: true, value };
}

export function fail<TError>(error: TError): { ok: false; error: TError } {
  return { ok: false, error };
}
