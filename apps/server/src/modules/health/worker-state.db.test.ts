import { healthSchema } from '@cadence/shared/schemas/user';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers } from '../../jobs/worker.ts';
import { createTestApp, type TestApp } from '../../test-support/app.ts';
import { pollUntil } from '../../tiktok/sandbox-test-kit.ts';
import { WORKER_HEARTBEAT_QUEUE, workerHeartbeatQueue } from './worker-state.ts';

/**
 * Regression (issue 10, item 6): /api/health said the worker was running whatever it did. The
 * workers' state now comes from the database, so this app (its own workers off, like an HTTP
 * process with WORKER=off) sees whether any worker takes jobs.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ WORKER: 'off' });
}, 60_000);
afterAll(async () => {
  await t.close();
});

async function health() {
  const response = await t.app.inject({ url: '/api/health' });
  return { status: response.statusCode, body: healthSchema.parse(response.json()) };
}

describe('GET /api/health and the job workers', () => {
  it('reports no worker and no stall while nothing is due', async () => {
    const { status, body } = await health();
    expect(status).toBe(200);
    expect(body.worker).toEqual({
      mode: 'off',
      running: false,
      stalled: false,
      lastHeartbeatAt: null,
      queues: [],
    });
  });

  it('answers 503 when jobs wait past the stall window with no worker, then ok once one runs', async () => {
    // A job due ten minutes ago that nobody took: what a deployment without a live worker shows.
    await workerHeartbeatQueue.send(
      t.context.boss,
      {},
      { startAfter: new Date(Date.now() - 600_000) },
    );
    const stalled = await health();
    expect(stalled.status).toBe(503);
    expect(stalled.body).toMatchObject({
      status: 'unhealthy',
      worker: { running: false, stalled: true, queues: [{ name: WORKER_HEARTBEAT_QUEUE, due: 1 }] },
      problems: ['the job workers have stalled: jobs are due and no worker is taking them'],
    });

    await startWorkers(t.context, pino({ level: 'silent' }));
    const recovered = await pollUntil(health, (answer) => answer.status === 200, {
      timeoutMs: 30_000,
    });
    expect(recovered.body.worker).toMatchObject({ running: true, stalled: false });
    const beat = recovered.body.worker.lastHeartbeatAt;
    expect(beat && Date.now() - Date.parse(beat)).toBeLessThan(60_000);
  }, 60_000);
});
