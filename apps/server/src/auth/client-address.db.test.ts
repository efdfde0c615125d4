// Who the client is, behind a proxy: the login, sign-up and reset limits are keyed by the client's
// address, so no client may choose it. With an https PUBLIC_URL (a TLS proxy in front, which
// appends the address it saw to X-Forwarded-For), the address is the proxy's last entry; whatever
// the client wrote to the left of it is not read. Before, every hop was trusted and the left-most
// entry, the client's own, keyed the limits: changing it got around them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testOrigin, type TestApp } from '../test-support/app.ts';

const LIMIT = 3;
const PUBLIC_URL = 'https://cadence.example';
let behindProxy: TestApp;
let direct: TestApp;

beforeAll(async () => {
  const env = { LOGIN_RATE_LIMIT_PER_MINUTE: String(LIMIT) };
  behindProxy = await createTestApp({ ...env, PUBLIC_URL });
  direct = await createTestApp(env);
}, 60_000);
afterAll(async () => {
  await behindProxy.close();
  await direct.close();
});

/** A failed log-in, from `remoteAddress` (the socket: the proxy, or the client itself). */
function logIn(t: TestApp, forwardedFor: string | null, remoteAddress: string, attempt: number) {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    remoteAddress,
    payload: { email: 'someone@example.com', password: `guess-${attempt}` },
    headers: {
      origin: t === behindProxy ? PUBLIC_URL : testOrigin,
      ...(forwardedFor !== null && { 'x-forwarded-for': forwardedFor }),
    },
  });
}

describe('the client address the limits count', () => {
  it('behind the proxy, is the address the proxy saw, whatever the client forwarded', async () => {
    const statuses = [];
    for (let attempt = 0; attempt <= LIMIT; attempt++) {
      // The client makes up a new address each time; the proxy appends the one it saw.
      const response = await logIn(
        behindProxy,
        `10.9.9.${attempt}, 198.51.100.7`,
        '127.0.0.1',
        attempt,
      );
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([...Array.from({ length: LIMIT }, () => 401), 429]);
    // Another client behind the same proxy is counted apart.
    expect((await logIn(behindProxy, '198.51.100.8', '127.0.0.1', 0)).statusCode).toBe(401);
  });

  it('without a proxy (http PUBLIC_URL), is the socket’s address; X-Forwarded-For is not read', async () => {
    const statuses = [];
    for (let attempt = 0; attempt <= LIMIT; attempt++) {
      const response = await logIn(direct, `10.9.9.${attempt}`, '203.0.113.50', attempt);
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([...Array.from({ length: LIMIT }, () => 401), 429]);
  });
});
