import { connect, type Socket } from 'node:net';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './test-support/app.ts';

// HTTP_IDLE_TIMEOUT_SECONDS: a connection that stops moving bytes mid-request is closed; one that
// keeps moving, however slowly, is served. One second here; 90 in production.
let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await createTestApp({ HTTP_IDLE_TIMEOUT_SECONDS: '1' }, { listen: true });
  port = Number(new URL(t.url).port);
});
afterAll(() => t.close());

/** A sign-in whose headers promise a body of `length` bytes; the caller sends the body. */
function startSignIn(length: number): { socket: Socket; answer: Promise<string> } {
  const socket = connect(port, '127.0.0.1');
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(answer)));
  socket.write(
    `POST /api/auth/sign-in/email HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: ${t.url}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n`,
  );
  return { socket, answer: closed };
}

const body = JSON.stringify({ email: 'nobody@example.com', password: 'not-the-password' });

describe('a connection that stalls in the middle of a request', () => {
  it('is closed once it has moved no byte for the idle timeout, and the server goes on', async () => {
    const startedAt = Date.now();
    const { socket, answer } = startSignIn(body.length);
    socket.write(body.slice(0, 10));
    // Before: the server waited for the rest for ever (the test's own timeout ended it).
    const answered = await answer;
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(900);
    expect(answered).toBe('');
    // On a connection of its own: a pooled one may be an idle keep-alive the server is closing.
    const fresh = new Agent();
    try {
      const health = await request(`${t.url}/api/health`, { dispatcher: fresh });
      await health.body.dump();
      expect(health.statusCode).toBe(200);
    } finally {
      await fresh.close();
    }
  });

  it('is served when it keeps moving, however slowly, for longer than the idle timeout', async () => {
    const startedAt = Date.now();
    const { socket, answer } = startSignIn(body.length);
    // Five bytes every 250 ms: idle at most a quarter of the timeout, ~2.5 s in all.
    let sent = 0;
    const trickle = setInterval(() => {
      socket.write(body.slice(sent, sent + 5));
      sent += 5;
      if (sent >= body.length) clearInterval(trickle);
    }, 250);
    const answered = await answer;
    clearInterval(trickle);
    expect(Date.now() - startedAt).toBeGreaterThan(1_500);
    // The sign-in ran: a wrong password is a 401 with the app's body.
    expect(answered).toMatch(/^HTTP\/1\.1 401/);
  });
});
