import { describe, expect, it } from 'vitest';
import { parseCallbackOutcome } from './callback-outcome.ts';

const parse = (query: string) => parseCallbackOutcome(new URLSearchParams(query));
const id = '0b8a4c1e-5d2f-4a7b-9c3e-1f2a3b4c5d6e';

describe('parseCallbackOutcome', () => {
  it('reads each error kind the server redirects with', () => {
    expect(parse('error=connection')).toEqual({ kind: 'error', error: 'connection' });
    expect(parse('error=token')).toEqual({ kind: 'error', error: 'token' });
    expect(parse('error=state')).toEqual({ kind: 'error', error: 'state' });
  });

  it('treats an unknown error value as a failed connection rather than ignoring it', () => {
    expect(parse('error=access_denied')).toEqual({ kind: 'error', error: 'connection' });
    expect(parse(`error=&connected=${id}`)).toEqual({ kind: 'error', error: 'connection' });
  });

  it('reads the connected account id, and ignores anything that is not one', () => {
    expect(parse(`connected=${id}`)).toEqual({ kind: 'connected', accountId: id });
    expect(parse('connected=<script>')).toBeNull();
    expect(parse('')).toBeNull();
    expect(parse('account=whatever')).toBeNull();
  });

  it('reads the pending connection of a mismatched account, and ignores anything that is not one', () => {
    expect(parse(`mismatch=${id}`)).toEqual({ kind: 'mismatch', pendingId: id });
    expect(parse('mismatch=../../x')).toBeNull();
  });
});
