import { uuidParams } from '@cadence/shared/schemas/params';
import { dataExportStateSchema, deleteAccountSchema } from '@cadence/shared/schemas/user';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Auth } from '../../auth/auth.ts';
import { checkPasswordAgain } from '../../auth/password-check.ts';
import { signedIn, userOf } from '../../auth/route-guards.ts';
import { fileReply, noBody } from '../../openapi/plugin.ts';
import type { DataExportService } from './export-service.ts';
import type { DataRightsService } from './service.ts';

/**
 * The privacy policy's rights: POST /api/me/delete (the account and everything of it, after the
 * password again) and 'download my data' (/api/me/export: ask, follow, download the ZIP).
 */
export async function dataRightsRoutes(
  fastify: FastifyInstance,
  {
    dataRights,
    dataExports,
    auth,
  }: { dataRights: DataRightsService; dataExports: DataExportService; auth: Auth },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const preValidation = signedIn(fastify);

  app.post(
    '/api/me/delete',
    {
      preValidation,
      schema: {
        tags: ['me'],
        description:
          'Deletes my account: TikTok grants revoked, pending posts cancelled, every file and row removed.',
        body: deleteAccountSchema,
        response: { 204: noBody('Deleted; the session is over') },
      },
    },
    async (request, reply) => {
      await checkPasswordAgain(auth, request, request.body.password);
      await dataRights.deleteAccount(userOf(request).id);
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/me/export',
    {
      preValidation,
      schema: {
        tags: ['me'],
        description: 'My latest data export (null when I never asked for one), with its progress.',
        response: { 200: dataExportStateSchema },
      },
    },
    async (request) => ({ export: await dataExports.current(userOf(request).id) }),
  );

  app.post(
    '/api/me/export',
    {
      preValidation,
      schema: {
        tags: ['me'],
        description:
          'Asks for a ZIP of my data (JSON and media), prepared by a job; 409 while one is in progress.',
        response: { 202: dataExportStateSchema },
      },
    },
    async (request, reply) => {
      const created = await dataExports.request(userOf(request).id);
      return reply.status(202).send({ export: created });
    },
  );

  app.get(
    '/api/me/export/:id/download',
    {
      preValidation,
      schema: {
        tags: ['me'],
        description: "The ready ZIP; only its owner's session can fetch it (404 for anyone else).",
        params: uuidParams,
        response: { 200: fileReply('application/zip', 'The archive') },
      },
    },
    async (request, reply) => {
      const { stream, size, fileName } = await dataExports.open(
        userOf(request).id,
        request.params.id,
      );
      return reply
        .header('content-type', 'application/zip')
        .header('content-length', size)
        .header('cache-control', 'private, no-store')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .send(stream);
    },
  );
}
