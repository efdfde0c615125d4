import { healthSchema, type Health } from '@cadence/shared/schemas/user';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Config } from '../../config.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { createMediaToolsMonitor, mediaToolProblems } from './media-tools.ts';
import { readWorkerState, WORKER_STALL_AFTER_MS, type WorkerState } from './worker-state.ts';

export interface HealthDeps {
  database: Pick<DatabaseHandle, 'db' | 'kind'>;
  media: Config['media'];
  /** This process's WORKER setting (the workers' state itself is read from the database). */
  workerMode: 'embedded' | 'off';
  /** Tests shorten it; default WORKER_STALL_AFTER_MS. */
  stallAfterMs?: number;
}

export async function healthRoutes(app: FastifyInstance, deps: HealthDeps) {
  const mediaTools = createMediaToolsMonitor(deps.media, app.log);
  const stallAfterMs = deps.stallAfterMs ?? WORKER_STALL_AFTER_MS;

  const schema = { tags: ['health'], response: { 200: healthSchema, 503: healthSchema } };
  app.get('/api/health', { schema }, async (_request, reply) => {
    let databaseOk = true;
    let workers: WorkerState | null = null;
    try {
      await sql`select 1`.execute(deps.database.db);
      workers = await readWorkerState(deps.database.db, stallAfterMs);
    } catch {
      databaseOk = false;
    }
    const stalled = workers?.stalled ?? false;
    const tools = await mediaTools.current();
    const { fatal, degraded } = mediaToolProblems(tools);
    const problems = [
      ...(databaseOk ? [] : ['the database is unreachable']),
      ...(stalled
        ? ['the job workers have stalled: jobs are due and no worker is taking them']
        : []),
      ...fatal,
      ...degraded,
    ];
    const healthy = databaseOk && !stalled && fatal.length === 0;
    const body: Health = {
      status: !healthy ? 'unhealthy' : degraded.length > 0 ? 'degraded' : 'ok',
      database: { kind: deps.database.kind, ok: databaseOk },
      worker: {
        mode: deps.workerMode,
        running: workers?.running ?? false,
        stalled,
        lastHeartbeatAt: workers?.lastHeartbeatAt?.toISOString() ?? null,
        queues: workers?.queues ?? [],
      },
      media: { ffmpeg: tools.ffmpeg.state, ffprobe: tools.ffprobe.state, ytDlp: tools.ytDlp.state },
      problems,
      uptimeSeconds: Math.round(process.uptime()),
    };
    return reply.status(healthy ? 200 : 503).send(body);
  });
}
