import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { DataExportState } from '@cadence/shared/schemas/user';
import { sql } from 'kysely';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { BOSS_SCHEMA } from '../../jobs/boss.ts';
import { S3Storage } from '../../storage/s3-storage.ts';
import { FakeS3 } from '../../test-support/fake-s3.ts';
import { readZip } from '../../test-support/read-zip.ts';
import { createUserRepository } from '../users/repository.ts';
import {
  addVideo,
  api,
  connectTikTok,
  createSchedule,
  scheduleBody,
  signUp,
  useScheduleTestApp,
  type TestUser,
} from '../schedules/test-kit.ts';
import { dataExportBuildQueue, enqueueDataExport } from './export-jobs.ts';
import { createDataExportRepository } from './export-repository.ts';
import { dataExportKey } from './export-build.ts';
import { createDataExportService, type DataExportService } from './export-service.ts';

const kit = useScheduleTestApp('cadence-export-');

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function exportState(user: TestUser): Promise<DataExportState> {
  const response = await api(kit.t, user.cookie, 'GET', '/api/me/export');
  expect(response.statusCode, response.body).toBe(200);
  return response.json<DataExportState>();
}

function json(entries: Map<string, Buffer>, name: string): Record<string, unknown>[] {
  const bytes = entries.get(name);
  if (!bytes) throw new Error(`${name} missing from the archive`);
  const parsed: unknown = JSON.parse(bytes.toString('utf8'));
  if (!Array.isArray(parsed)) throw new Error(`${name} is not a JSON array`);
  return parsed as Record<string, unknown>[];
}

/** The export service on the test app's database and storage, with some parts replaced. */
function exportService(
  overrides: Partial<Parameters<typeof createDataExportService>[0]> = {},
): DataExportService {
  const db = kit.t.context.database.db;
  return createDataExportService({
    repository: createDataExportRepository(db),
    storage: kit.t.context.storage,
    users: createUserRepository(db),
    mail: { queue: () => Promise.resolve('mail-id') },
    enqueue: () => Promise.resolve(),
    publicUrl: kit.t.url,
    logger: pino({ level: 'silent' }),
    ...overrides,
  });
}

describe('downloading my data', () => {
  let alice: TestUser;
  let bob: TestUser;
  let video: { mediaId: string; sha256: string };
  let exportId: string;
  let archive: Map<string, Buffer>;

  beforeAll(async () => {
    alice = await signUp(kit.t, 'alice-export@example.com');
    bob = await signUp(kit.t, 'bob-export@example.com');
    const account = await connectTikTok(kit.t, alice, 'alice_exports');
    video = await addVideo(kit.t, alice, kit.dir, 'alice-export-clip');
    await createSchedule(
      kit.t,
      alice,
      scheduleBody(account, [video.mediaId], {
        publishType: 'scheduled',
        date: '2099-04-04',
        time: '10:00',
      }),
    );
    const draft = await api(kit.t, alice.cookie, 'POST', '/api/drafts', {
      accountId: account,
      mediaIds: [video.mediaId],
    });
    expect(draft.statusCode, draft.body).toBe(201);
    await api(kit.t, alice.cookie, 'PUT', '/api/notifications/settings', {
      emailTypes: ['post_failed', 'story_ready'],
      digest: true,
    });
    await kit.t.context.notifications.notify({
      userId: alice.id,
      type: 'story_ready',
      dedupeKey: 'story_ready:alice-export',
      data: { storyId: 'story-1' },
    });
  }, 120_000);

  it('is prepared by a job: pending, then ready with the link, one at a time', async () => {
    expect(await exportState(alice)).toEqual({ export: null });
    const asked = await api(kit.t, alice.cookie, 'POST', '/api/me/export');
    expect(asked.statusCode, asked.body).toBe(202);
    const created = asked.json<DataExportState>().export;
    expect(created).toMatchObject({ status: 'pending', progress: 0, downloadUrl: null });
    exportId = created?.id ?? '';

    // One at a time: a second request while the first is prepared is a translated 409.
    const again = await api(kit.t, alice.cookie, 'POST', '/api/me/export');
    expect(again.statusCode).toBe(409);
    expect(again.json<{ fields: Record<string, string> }>().fields._).toBe(
      'settings.errors.exportInProgress',
    );

    await kit.t.context.dataExports.build(exportId);
    const ready = (await exportState(alice)).export;
    expect(ready).toMatchObject({
      id: exportId,
      status: 'ready',
      progress: 100,
      downloadUrl: `/api/me/export/${exportId}/download`,
    });
    expect(new Date(ready?.expiresAt ?? 0).getTime() - Date.now()).toBeGreaterThan(6 * 86_400_000);

    // The link goes out by email too, in her language, to the settings page.
    const mails = await kit.t.context.database.db
      .selectFrom('mail_outbox')
      .select(['to_address', 'subject'])
      .where('kind', '=', 'data-export')
      .execute();
    expect(mails).toEqual([
      { to_address: alice.email, subject: 'Vos données Cadence sont prêtes' },
    ]);
  });

  it('holds my data as JSON (no tokens) and my media byte for byte', async () => {
    const response = await kit.t.app.inject({
      method: 'GET',
      url: `/api/me/export/${exportId}/download`,
      headers: { cookie: alice.cookie },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="cadence-data-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    archive = await readZip(response.rawPayload);

    expect(json(archive, 'profile.json')).toEqual([
      expect.objectContaining({ id: alice.id, email: alice.email }),
    ]);
    const accounts = json(archive, 'accounts.json');
    expect(accounts).toEqual([expect.objectContaining({ username: 'alice_exports' })]);
    const accountText = archive.get('accounts.json')?.toString() ?? '';
    expect(accountText).not.toMatch(/access_token_enc|refresh_token_enc|"[^"]*_enc"/);
    expect(json(archive, 'schedules.json')).toHaveLength(1);
    expect(json(archive, 'posts.json')).toEqual([
      expect.objectContaining({ media_id: video.mediaId, status: 'pending' }),
    ]);
    expect(json(archive, 'drafts.json')).toHaveLength(1);
    expect(json(archive, 'notifications.json')).toEqual([
      expect.objectContaining({ type: 'story_ready' }),
    ]);
    expect(json(archive, 'settings.json')).toEqual([
      expect.objectContaining({ digest: true, email_types: ['post_failed', 'story_ready'] }),
    ]);
    expect(json(archive, 'sessions.json').length).toBeGreaterThan(0);
    expect(archive.get('sessions.json')?.toString()).not.toContain('"token"');
    for (const file of ['analytics/accounts.json', 'analytics/video-snapshots.json']) {
      expect(archive.has(file), file).toBe(true);
    }
    const media = archive.get(`media/${video.mediaId}.mp4`);
    expect(media && sha256(media)).toBe(video.sha256);
    expect([...archive.keys()].some((name) => name.startsWith('media/thumbnails/'))).toBe(true);
    // Nothing of Bob's.
    expect([...archive.values()].some((bytes) => bytes.includes(bob.id))).toBe(false);
  });

  it('cannot be fetched by anyone else, nor signed out', async () => {
    const url = `/api/me/export/${exportId}/download`;
    const asBob = await kit.t.app.inject({ method: 'GET', url, headers: { cookie: bob.cookie } });
    expect(asBob.statusCode).toBe(404);
    expect(asBob.json<{ fields: Record<string, string> }>().fields._).toBe(
      'settings.errors.exportNotFound',
    );
    expect((await exportState(bob)).export).toBeNull();
    expect((await kit.t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    for (const bad of ['not-a-uuid', '..%2F..%2Fsecrets.json']) {
      const response = await kit.t.app.inject({
        method: 'GET',
        url: `/api/me/export/${bad}/download`,
        headers: { cookie: alice.cookie },
      });
      expect(response.statusCode, bad).toBe(400);
    }
  });

  it('is deleted from storage once expired, and the link then answers 404', async () => {
    const key = dataExportKey(alice.id, exportId);
    expect(await kit.t.context.storage.stat(key)).not.toBeNull();
    // Not yet: nothing happens.
    expect(await kit.t.context.dataExports.purgeExpired()).toBe(0);
    await kit.t.context.database.db
      .updateTable('data_exports')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', exportId)
      .execute();
    expect(await kit.t.context.dataExports.purgeExpired()).toBe(1);
    expect(await kit.t.context.storage.stat(key)).toBeNull();
    expect((await exportState(alice)).export).toMatchObject({
      status: 'expired',
      downloadUrl: null,
    });
    const response = await kit.t.app.inject({
      method: 'GET',
      url: `/api/me/export/${exportId}/download`,
      headers: { cookie: alice.cookie },
    });
    expect(response.statusCode).toBe(404);
  });

  it('works the same on S3 storage', async () => {
    const fake = new FakeS3('cadence-exports', true);
    const s3 = new S3Storage({
      endpoint: 'http://s3.test:9000',
      region: 'us-east-1',
      bucket: 'cadence-exports',
      accessKeyId: 'test-key',
      secretAccessKey: 'test-secret',
      forcePathStyle: true,
      tmpDir: kit.dir,
      partSizeBytes: 5 * 1024 * 1024,
      clientOverrides: { requestHandler: fake.handler, maxAttempts: 1 },
    });
    // Alice's files, as an S3 deployment holds them.
    const db = kit.t.context.database.db;
    const rows = await db
      .selectFrom('media')
      .select(['storage_key', 'thumbnail_key'])
      .where('user_id', '=', alice.id)
      .execute();
    for (const key of rows.flatMap((row) => [row.storage_key, row.thumbnail_key ?? ''])) {
      if (!key) continue;
      const bytes = await buffer(await kit.t.context.storage.createReadStream(key));
      await s3.put(key, Readable.from([bytes]), { contentType: 'application/octet-stream' });
    }
    const service = exportService({ storage: s3 });
    const created = await service.request(alice.id);
    await service.build(created.id);
    expect((await service.current(alice.id))?.status).toBe('ready');
    const { stream } = await service.open(alice.id, created.id);
    const entries = await readZip(await buffer(stream));
    const media = entries.get(`media/${video.mediaId}.mp4`);
    expect(media && sha256(media)).toBe(video.sha256);
    expect(json(entries, 'profile.json')).toEqual([expect.objectContaining({ id: alice.id })]);
    expect(fake.objects.has(dataExportKey(alice.id, created.id))).toBe(true);
    await expect(service.open(bob.id, created.id)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('leaves no archive in storage when its job gives up', async () => {
    const storage = kit.t.context.storage;
    // The database connection drops once the archive is written: the attempt fails with the
    // archive in storage (a kill between the write and the update leaves the same).
    const repository = createDataExportRepository(kit.t.context.database.db);
    const service = exportService({
      repository: {
        ...repository,
        markReady: () => Promise.reject(new Error('Connection terminated unexpectedly')),
      },
    });
    const created = await service.request(bob.id);
    await expect(service.build(created.id)).rejects.toThrow('Connection terminated');
    const key = dataExportKey(bob.id, created.id);
    expect(await storage.stat(key)).not.toBeNull();

    // The queue's last failure: the row says so and the archive goes with it.
    await service.giveUp(created.id, new Error('Connection terminated unexpectedly'));
    expect(await service.current(bob.id)).toMatchObject({
      id: created.id,
      status: 'failed',
      downloadUrl: null,
    });
    expect(await storage.stat(key)).toBeNull();
  });

  it('keeps a ready archive when a later step of its job gives up', async () => {
    const storage = kit.t.context.storage;
    // The archive is ready and linked; only the mail that announces it fails.
    const service = exportService({
      mail: { queue: () => Promise.reject(new Error('mail outbox unavailable')) },
    });
    const created = await service.request(bob.id);
    await expect(service.build(created.id)).rejects.toThrow('mail outbox unavailable');
    await service.giveUp(created.id, new Error('mail outbox unavailable'));
    expect(await service.current(bob.id)).toMatchObject({ id: created.id, status: 'ready' });
    expect(await storage.stat(dataExportKey(bob.id, created.id))).not.toBeNull();
  });
  it('fails an export no job will finish any more, so its owner can ask again', async () => {
    const carol = await signUp(kit.t, 'carol-export@example.com');
    const { boss, database } = kit.t.context;
    let clock = Date.now();
    const service = exportService({
      enqueue: (exportId) => enqueueDataExport(boss, exportId),
      now: () => new Date(clock),
    });
    const stuck = await service.request(carol.id);
    clock += 11 * 60_000;
    // Its job is alive (queued, not run yet): nothing happens however old the export is.
    expect(await service.failOrphaned(dataExportBuildQueue.name)).toBe(0);
    expect(await service.current(carol.id)).toMatchObject({ id: stuck.id, status: 'pending' });

    // Its worker was killed during the last attempt: pg-boss failed the job by timeout, and no
    // give-up ran. Until now the export stayed 'pending' and every new request was a 409.
    await sql`update ${sql.table(`${BOSS_SCHEMA}.job`)} set state = 'failed'
      where name = ${dataExportBuildQueue.name} and singleton_key = ${stuck.id}`.execute(
      database.db,
    );
    await expect(service.request(carol.id)).rejects.toThrow();
    expect(await service.failOrphaned(dataExportBuildQueue.name)).toBe(1);
    expect(await service.current(carol.id)).toMatchObject({ id: stuck.id, status: 'failed' });
    const again = await service.request(carol.id);
    expect(again).toMatchObject({ status: 'pending' });
    expect(await service.failOrphaned(dataExportBuildQueue.name)).toBe(0);
  });

  it('does not hold the slot when its job could not be queued', async () => {
    const dave = await signUp(kit.t, 'dave-export@example.com');
    const broken = exportService({
      enqueue: () => Promise.reject(new Error('Connection terminated unexpectedly')),
    });
    await expect(broken.request(dave.id)).rejects.toThrow('Connection terminated');
    expect(await broken.current(dave.id)).toMatchObject({ status: 'failed' });
    expect(await exportService().request(dave.id)).toMatchObject({ status: 'pending' });
  });
});
