import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, sessionCookie, type TestApp } from '../test-support/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { listen: true });
});
afterAll(() => t.close());

async function signIn(email: string, password = 'secret123'): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    payload: { email, password },
  });
  expect(response.statusCode).toBe(200);
  return sessionCookie(response);
}

/** Reads an SSE stream until the server ends it; fails if it is still open after `timeoutMs`. */
async function readUntilEnd(cookie: string, endAction: () => Promise<void>, timeoutMs = 20_000) {
  const aborter = new AbortController();
  const response = await fetch(`${t.url}/api/posts/events`, {
    headers: { cookie },
    signal: aborter.signal,
  });
  expect(response.status).toBe(200);
  const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
  if (!reader) throw new Error('no body');
  const first = await reader.read();
  let text = first.value ?? '';
  await endAction();
  const deadline = setTimeout(() => aborter.abort(), timeoutMs);
  let ended = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) {
        ended = true;
        break;
      }
      text += value;
    }
  } catch {
    // aborted at the deadline: the server never ended the stream
  } finally {
    clearTimeout(deadline);
  }
  return { ended, text };
}

describe('GET /api/posts/events after the session ends', () => {
  // Regression: a stream opened before sign-out kept streaming the user's post updates.
  it('closes the stream when its session signs out', async () => {
    const signUp = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      payload: { name: 'Sse', email: 'sse@example.com', password: 'secret123' },
    });
    const cookie = sessionCookie(signUp);
    const { ended, text } = await readUntilEnd(cookie, async () => {
      const out = await t.app.inject({
        method: 'POST',
        url: '/api/auth/sign-out',
        headers: { cookie },
        payload: {},
      });
      expect(out.statusCode).toBe(200);
    });
    expect(ended).toBe(true);
    expect(text).toContain('event: signed-out');
  });

  it('closes the stream when another session revokes it, and keeps the other one open', async () => {
    const doomed = await signIn('sse@example.com');
    const survivor = await signIn('sse@example.com');
    const { ended } = await readUntilEnd(doomed, async () => {
      const revoke = await t.app.inject({
        method: 'POST',
        url: '/api/auth/revoke-other-sessions',
        headers: { cookie: survivor },
        payload: {},
      });
      expect(revoke.statusCode).toBe(200);
    });
    expect(ended).toBe(true);
    const still = await t.app.inject({ url: '/api/me', headers: { cookie: survivor } });
    expect(still.statusCode).toBe(200);
  });
});
