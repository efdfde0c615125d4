import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../test-support/app.ts';
import { routesDeclaredOn } from './plugin.ts';

/**
 * Routes that declare no zod schema, each with why. Anything else under /api or /auth without
 * one fails the test below: validation, serialisation and the OpenAPI document all come from it.
 */
const undeclared: readonly { prefix: string; why: string }[] = [
  {
    prefix: '/api/uploads',
    why: 'tus protocol: headers and a streamed body, checked by tus.ts and the upload hooks',
  },
];

const openApiShape = z.object({
  openapi: z.string(),
  paths: z.record(
    z.string(),
    z.record(z.string(), z.object({ responses: z.record(z.string(), z.unknown()) })),
  ),
});

describe('the API description', () => {
  let test: TestApp;
  beforeAll(async () => {
    test = await createTestApp();
  });
  afterAll(() => test.close());

  it('every API route declares its params, body and replies', () => {
    const routes = routesDeclaredOn(test.app).filter(
      (route) =>
        (route.url.startsWith('/api/') || route.url.startsWith('/auth/')) &&
        // The reference pages and the document itself (hidden from the document they serve).
        route.schema?.hide !== true &&
        !undeclared.some(({ prefix }) => route.url.startsWith(prefix)),
    );
    expect(routes.length).toBeGreaterThan(25);
    const missing = routes.flatMap(({ method, url, schema }) => {
      const problems = [
        ...(schema?.response === undefined ? ['response'] : []),
        ...(url.includes(':') && schema?.params === undefined ? ['params'] : []),
      ];
      return problems.map((problem) => `${method} ${url}: no ${problem} schema`);
    });
    expect(missing).toEqual([]);
  });

  it('serves a valid OpenAPI 3 document of those routes', async () => {
    const response = await test.app.inject({ url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    // Every operation must say what it answers (OpenAPI requires `responses`).
    const { openapi, paths } = openApiShape.parse(response.json());
    expect(openapi).toMatch(/^3\./);
    expect(Object.keys(paths)).toEqual(
      expect.arrayContaining([
        '/api/posts/{id}/reschedule',
        '/api/schedules',
        '/api/me',
        // Forwarded to better-auth, described by the shared schemas (auth/routes.ts).
        '/api/auth/sign-up/email',
        '/api/auth/sign-in/email',
        '/api/auth/sign-out',
        '/api/auth/get-session',
        '/api/auth/request-password-reset',
        '/api/auth/reset-password',
        '/api/auth/list-sessions',
      ]),
    );
    for (const [path, operations] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        expect(Object.keys(operation.responses), `${method} ${path}`).not.toEqual([]);
      }
    }
  });

  it('serves the browsable reference from this server', async () => {
    const page = await test.app.inject({ url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toMatch(/https?:\/\//);
    const script = await test.app.inject({ url: '/api/docs/static/swagger-ui-bundle.js' });
    expect(script.statusCode).toBe(200);
  });
});
