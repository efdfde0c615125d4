import type { Health } from '@cadence/shared/schemas/user';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';

export async function healthRoutes(app: FastifyInstance, { context }: { context: AppContext }) {
  app.get('/api/health', async (_request, reply) => {
    let databaseOk = true;
    try {
      await sql`select 1`.execute(context.database.db);
    } catch {
      databaseOk = false;
    }
    const workerRunning = context.worker.running();
    const body: Health = {
      status: databaseOk ? 'ok' : 'degraded',
      database: { kind: context.database.kind, ok: databaseOk },
      worker: { mode: context.config.worker.embedded ? 'embedded' : 'off', running: workerRunning },
      uptimeSeconds: Math.round(process.uptime()),
    };
    return reply.status(databaseOk ? 200 : 503).send(body);
  });
}
