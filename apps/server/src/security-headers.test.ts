import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './test-support/app.ts';

// Helmet's headers (content security policy, nosniff, framing, referrer, isolation) are added by a
// hook; the refusals Fastify makes before any route runs skip the hooks. Every answer has them.

/** The security headers of an answer, by name. */
const securityHeaderNames = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'x-content-type-options',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

describe('security headers', () => {
  let test: TestApp;
  beforeAll(async () => {
    test = await createTestApp();
  });
  afterAll(() => test.close());

  const headersOf = async (url: string) => {
    const answer = await test.app.inject({ method: 'GET', url });
    return {
      status: answer.statusCode,
      cacheControl: answer.headers['cache-control'],
      security: Object.fromEntries(securityHeaderNames.map((name) => [name, answer.headers[name]])),
    };
  };

  it("are on Fastify's own refusals as on every route's answer, and nothing keeps them", async () => {
    const route = await headersOf('/api/me');
    expect(route.status).toBe(401);
    for (const value of Object.values(route.security)) expect(value).toBeTruthy();
    const refusals = {
      'an address Fastify cannot decode': '/api/media/%zz',
      'a path parameter over the length limit': `/api/posts/${'a'.repeat(600)}`,
    };
    for (const [what, url] of Object.entries(refusals)) {
      const refusal = await headersOf(url);
      expect(refusal.status, what).toBeGreaterThanOrEqual(400);
      // Before: no security header and no cache-control on these.
      expect(refusal.security, what).toEqual(route.security);
      expect(refusal.cacheControl, what).toBe('no-store');
    }
  });
});
