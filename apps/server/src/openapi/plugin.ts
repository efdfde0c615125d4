import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema, FastifySchemaCompiler } from 'fastify';
import { createJsonSchemaTransform, serializerCompiler } from 'fastify-type-provider-zod';
import { Readable } from 'node:stream';
import { z, type ZodType } from 'zod';

export const openApiPath = '/api/openapi.json';
export const docsPrefix = '/api/docs';

/**
 * Validates a route's params, querystring and body with the zod schema it declares. A refusal is
 * the ZodError itself, so the one error handler (lib/app-error.ts) answers it as it answers every
 * other validation failure: 400 `validation_failed` with a translation key per field.
 * (fastify-type-provider-zod's own compiler wraps the issues in a Fastify error, which would lose
 * those keys.)
 */
export const zodValidatorCompiler: FastifySchemaCompiler<ZodType> =
  ({ schema }) =>
  (data) => {
    const result = schema.safeParse(data);
    return result.success ? { value: result.data } : { error: result.error };
  };

export interface DeclaredRoute {
  method: string;
  url: string;
  schema: FastifySchema | undefined;
}

const declaredRoutes = new WeakMap<FastifyInstance, readonly DeclaredRoute[]>();

/** Every route added after `registerOpenApi`, with the schema it declared (for the tests). */
export function routesDeclaredOn(app: FastifyInstance): readonly DeclaredRoute[] {
  return declaredRoutes.get(app) ?? [];
}

/**
 * Routes declare their schemas with zod (the shared contract); this makes Fastify validate with
 * them, serialise replies through them (nothing a schema does not name leaves the server) and
 * describe them as OpenAPI 3 at /api/openapi.json, with a browsable reference at /api/docs.
 * Register it before the routes: the swagger plugin only sees routes added after it.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  const routes: DeclaredRoute[] = [];
  declaredRoutes.set(app, routes);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) routes.push({ method, url: route.url, schema: route.schema });
  });
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Cadence API',
        description:
          'Schedules TikTok posts, renders stories and compiles memes. Signed-in routes take the ' +
          'better-auth session cookie; refusals are `{ code, message, fields? }` where each field ' +
          'names a translation key.',
        version: '1',
      },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'cadence.session_token' },
        },
      },
    },
    // A streamed file's schema is a `z.custom` (below) described by its metadata alone.
    transform: createJsonSchemaTransform({ zodToJsonConfig: { unrepresentable: 'any' } }),
    // The reference pages and the document itself are not part of the API they describe.
    hiddenTag: 'internal',
  });
  app.get(openApiPath, { schema: { hide: true } }, () => app.swagger());
  await app.register(swaggerUi, {
    routePrefix: docsPrefix,
    // Swagger UI's bundle ships inside the package and is served from here: nothing is fetched
    // from elsewhere, and its page (external scripts and styles only) passes the app's CSP as is.
    staticCSP: false,
    uiConfig: { validatorUrl: null, deepLinking: true, defaultModelsExpandDepth: 0 },
  });
}

/** A reply without a body (204, a redirect): described, never serialised. */
export const noBody = (description: string) => z.undefined().describe(description);

/** A streamed file reply (never serialised: Fastify sends streams as they are), for the document. */
export const fileReply = (contentType: string, description: string) => ({
  description,
  content: {
    [contentType]: {
      schema: z
        .custom<Readable>((value) => value instanceof Readable)
        .meta({ type: 'string', format: 'binary' }),
    },
  },
});

/** Every refusal: `fields` maps a field (or `_`) to a translation key. */
export const apiErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
});
