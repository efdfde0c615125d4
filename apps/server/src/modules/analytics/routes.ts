import { Readable } from 'node:stream';
import {
  analyticsAccountListSchema,
  analyticsExportQuerySchema,
  analyticsOverviewSchema,
  analyticsQuerySchema,
  bestTimesQuerySchema,
  bestTimesSchema,
  postMetricsListSchema,
  postMetricsQuerySchema,
  postMetricsSchema,
} from '@cadence/shared/schemas/analytics';
import { uuidParams } from '@cadence/shared/schemas/params';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { signedIn, userOf } from '../../auth/route-guards.ts';
import { fileReply } from '../../openapi/plugin.ts';
import type { AnalyticsService } from './service.ts';

/** Analytics of the signed-in user's TikTok accounts; another user's account or post is a 404. */
export async function analyticsRoutes(
  fastify: FastifyInstance,
  { analytics }: { analytics: AnalyticsService },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const preValidation = signedIn(fastify);
  const tags = ['analytics'];

  app.get(
    '/api/analytics/accounts',
    { preValidation, schema: { tags, response: { 200: analyticsAccountListSchema } } },
    async (request) => ({ accounts: await analytics.accounts(userOf(request).id) }),
  );

  app.get(
    '/api/analytics/overview',
    {
      preValidation,
      schema: {
        tags,
        querystring: analyticsQuerySchema,
        response: { 200: analyticsOverviewSchema },
      },
    },
    async (request) => analytics.overview(userOf(request).id, request.query),
  );

  app.get(
    '/api/analytics/export.csv',
    {
      preValidation,
      schema: {
        tags,
        querystring: analyticsExportQuerySchema,
        response: {
          200: fileReply('text/csv', 'The period as CSV: one row per day, or per video'),
        },
      },
    },
    async (request, reply) => {
      const query = request.query;
      const csv = await analytics.exportCsv(userOf(request).id, query);
      const name = `cadence-analytics-${query.table}.csv`;
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('cache-control', 'no-store')
        .send(Readable.from([csv]));
    },
  );

  app.get(
    '/api/analytics/best-times',
    {
      preValidation,
      schema: { tags, querystring: bestTimesQuerySchema, response: { 200: bestTimesSchema } },
    },
    async (request) => analytics.bestTimes(userOf(request).id, request.query),
  );

  app.get(
    '/api/analytics/posts',
    {
      preValidation,
      schema: {
        tags,
        querystring: postMetricsQuerySchema,
        response: { 200: postMetricsListSchema },
      },
    },
    async (request) => analytics.postMetricsList(userOf(request).id, request.query.ids),
  );

  app.get(
    '/api/analytics/posts/:id',
    {
      preValidation,
      schema: { tags, params: uuidParams, response: { 200: postMetricsSchema } },
    },
    async (request) => analytics.postMetrics(userOf(request).id, request.params.id),
  );
}
