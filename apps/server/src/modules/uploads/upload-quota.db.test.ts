import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUpViaApi, type TestApp } from '../../test-support/app.ts';
import { testDatabaseKind } from '../../test-support/database.ts';
import { createTempDir, makeVideo } from '../../test-support/media-fixtures.ts';
import { tusUpload } from '../../test-support/tus-upload.ts';
import { pollUntil } from '../../tiktok/sandbox-test-kit.ts';

// Issue 9, item 4: with USER_QUOTA_BYTES=10000000, six uploads created before any finished were
// all accepted (17.1 MB stored), and unfinished uploads were never counted.
const QUOTA = 10_000_000;

let t: TestApp;
let dir: string;
let cleanup: () => Promise<void>;
let users = 0;

beforeAll(async () => {
  ({ dir, cleanup } = await createTempDir());
  t = await createTestApp({ USER_QUOTA_BYTES: String(QUOTA) }, { listen: true });
});
afterAll(async () => {
  await t.close();
  await cleanup();
});

const signUp = () => signUpViaApi(t.app, { email: `quota-${++users}@example.com` }, t.url);

const tusHeaders = (cookie: string, extra: Record<string, string> = {}) => ({
  cookie,
  'tus-resumable': '1.0.0',
  ...extra,
});

function createUpload(baseUrl: string, cookie: string, length: number) {
  return fetch(`${baseUrl}/api/uploads`, {
    method: 'POST',
    headers: tusHeaders(cookie, {
      'upload-length': String(length),
      'upload-metadata': `filename ${Buffer.from('clip.mp4').toString('base64')}`,
    }),
  });
}

function patch(url: string, cookie: string, offset: number, body: Uint8Array) {
  return fetch(url, {
    method: 'PATCH',
    headers: tusHeaders(cookie, {
      'upload-offset': String(offset),
      'content-type': 'application/offset+octet-stream',
    }),
    body,
  });
}

const uploadUrl = (response: Response) =>
  new URL(response.headers.get('location') ?? '', `${t.url}/api/uploads/`).toString();

const tusDirectory = () => path.join(t.config.dataDir, 'media', '.tus-uploads');

/** Upload ids whose bytes sit in tus's staging directory. */
async function stagedUploads(): Promise<string[]> {
  const names = await readdir(tusDirectory()).catch(() => []);
  return names.filter((name) => !name.endsWith('.json')).sort();
}

async function reservationsOf(cookie: string) {
  const userId = await userIdOf(cookie);
  return t.context.database.db
    .selectFrom('upload_reservations')
    .select(['upload_id', 'declared_bytes'])
    .where('user_id', '=', userId)
    .execute();
}

async function userIdOf(cookie: string): Promise<string> {
  const response = await t.app.inject({ url: '/api/me', headers: { cookie } });
  return response.json<{ id: string }>().id;
}

describe('the upload quota', () => {
  it('six uploads created before any finished cannot overshoot the quota', async () => {
    const cookie = await signUp();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => createUpload(t.url, cookie, 2_850_000)),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 201, 201, 413, 413, 413]);
    const refusal = answers.find((answer) => answer.status === 413)!;
    // The answer says the quota, what is taken, and (translated by the web) what to do.
    expect(await refusal.json()).toMatchObject({
      code: 'media_rejected',
      reasons: ['quota_exceeded'],
      quotaBytes: QUOTA,
      usedBytes: 3 * 2_850_000,
    });
    const reserved = await reservationsOf(cookie);
    expect(reserved.reduce((sum, row) => sum + row.declared_bytes, 0)).toBe(3 * 2_850_000);
  });

  it('holds under many simultaneous creations: exactly what fits is accepted', async () => {
    const cookie = await signUp();
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => createUpload(t.url, cookie, 1_000_000)),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(10);
    expect(statuses.filter((status) => status === 413)).toHaveLength(30);
  });

  it.runIf(testDatabaseKind() === 'postgres')(
    'holds across two API processes sharing PostgreSQL',
    async () => {
      const second = await createTestApp(
        { USER_QUOTA_BYTES: String(QUOTA) },
        { listen: true, sameDeploymentAs: t },
      );
      try {
        const cookie = await signUp();
        const answers = await Promise.all(
          Array.from({ length: 40 }, (_, index) =>
            createUpload(index % 2 === 0 ? t.url : second.url, cookie, 1_000_000),
          ),
        );
        const accepted = answers.filter((answer) => answer.status === 201);
        expect(accepted).toHaveLength(10);
        expect(answers.filter((answer) => answer.status === 413)).toHaveLength(30);
      } finally {
        await second.close();
      }
    },
  );

  it('counts an abandoned upload until it expires; the cleanup job then deletes it', async () => {
    const cookie = await signUp();
    const abandoned = await createUpload(t.url, cookie, 6_000_000);
    expect(abandoned.status).toBe(201);
    const url = uploadUrl(abandoned);
    const id = url.split('/').at(-1)!;
    expect((await patch(url, cookie, 0, Buffer.alloc(1_000_000, 7))).status).toBe(204);

    // Only 1 MB is stored, but 6 MB stay reserved: a second 6 MB upload does not fit.
    expect((await createUpload(t.url, cookie, 6_000_000)).status).toBe(413);
    expect(await stagedUploads()).toContain(id);

    // A day later (the default UPLOAD_EXPIRY_HOURS) nothing touched it.
    await sql`update upload_reservations set expires_at = now() - interval '1 second'
      where upload_id = ${id}`.execute(t.context.database.db);
    // The pg-boss job, run by a worker of this app.
    const { startUploadWorkers, deleteExpiredUploadsQueue } = await import('./jobs.ts');
    await startUploadWorkers(t.context.boss, t.context.media, {
      logger: pino({ level: 'silent' }),
    });
    await deleteExpiredUploadsQueue.send(t.context.boss, {});
    await pollUntil(stagedUploads, (staged) => !staged.includes(id), { timeoutMs: 15_000 });
    expect(await reservationsOf(cookie)).toEqual([]);

    // The client coming back finds it gone (and starts over); the space is free again.
    expect((await patch(url, cookie, 1_000_000, Buffer.alloc(10, 7))).status).toBe(410);
    expect((await fetch(url, { method: 'HEAD', headers: tusHeaders(cookie) })).status).toBe(410);
    expect((await createUpload(t.url, cookie, 6_000_000)).status).toBe(201);
  });

  it('keeps an upload alive while PATCHes come, and refuses one that expired', async () => {
    const cookie = await signUp();
    const created = await createUpload(t.url, cookie, 2_000);
    const url = uploadUrl(created);
    const id = url.split('/').at(-1)!;
    await sql`update upload_reservations set expires_at = now() + interval '1 minute'
      where upload_id = ${id}`.execute(t.context.database.db);
    expect((await patch(url, cookie, 0, Buffer.alloc(1_000, 1))).status).toBe(204);
    const [row] = await t.context.database.db
      .selectFrom('upload_reservations')
      .select(sql<boolean>`expires_at > now() + interval '23 hours'`.as('extended'))
      .where('upload_id', '=', id)
      .execute();
    expect(row?.extended).toBe(true);

    await sql`update upload_reservations set expires_at = now() - interval '1 second'
      where upload_id = ${id}`.execute(t.context.database.db);
    // Expired: no PATCH may write it any more, and meeting it deletes it.
    expect((await patch(url, cookie, 1_000, Buffer.alloc(1_000, 1))).status).toBe(410);
    expect(await stagedUploads()).not.toContain(id);
    expect(await reservationsOf(cookie)).toEqual([]);
  });

  it('refuses Upload-Defer-Length (its size could outgrow the space reserved) and stores nothing', async () => {
    const cookie = await signUp();
    const before = await stagedUploads();
    const deferred = await fetch(`${t.url}/api/uploads`, {
      method: 'POST',
      headers: tusHeaders(cookie, { 'upload-defer-length': '1' }),
    });
    expect(deferred.status).toBe(400);
    expect(await deferred.json()).toMatchObject({
      code: 'validation_failed',
      fields: { _: 'media.rejected.invalid_upload' },
      message: expect.stringContaining('Upload-Length') as unknown,
    });
    expect(await stagedUploads()).toEqual(before);
    expect(await reservationsOf(cookie)).toEqual([]);
    const options = await fetch(`${t.url}/api/uploads`, { method: 'OPTIONS' });
    expect(options.headers.get('tus-extension')).not.toContain('creation-defer-length');
  });

  it('never lets a PATCH write past the declared length', async () => {
    const cookie = await signUp();
    const created = await createUpload(t.url, cookie, 1_000);
    const url = uploadUrl(created);
    expect((await patch(url, cookie, 0, Buffer.alloc(1_001, 1))).status).toBe(413);
    const growing = await fetch(url, {
      method: 'PATCH',
      headers: tusHeaders(cookie, {
        'upload-offset': '0',
        'upload-length': '9000000',
        'content-type': 'application/offset+octet-stream',
      }),
      body: Buffer.alloc(10, 1),
    });
    expect(growing.status).toBe(400);
    const probe = await fetch(url, { method: 'HEAD', headers: tusHeaders(cookie) });
    expect(probe.headers.get('upload-offset')).toBe('0');
    expect(probe.headers.get('upload-length')).toBe('1000');
  });

  it('turns a finished upload’s reservation into its media; refusing or deleting frees the space', async () => {
    const cookie = await signUp();
    const file = await makeVideo(path.join(dir, 'fits.mp4'), {
      width: 360,
      height: 640,
      durationSeconds: 1,
    });
    const accepted = await tusUpload(t.url, cookie, file, { chunkBytes: 16 * 1024 });
    expect(accepted.status, accepted.body).toBe(204);
    expect(await reservationsOf(cookie)).toEqual([]);
    const media = (
      await t.app.inject({ url: `/api/media/${accepted.id}`, headers: { cookie } })
    ).json<{ sizeBytes: number }>();
    const free = QUOTA - media.sizeBytes;

    // The media counts: one byte more than what is left does not fit…
    expect((await createUpload(t.url, cookie, free + 1)).status).toBe(413);
    // …what is left does, and terminating that upload gives its space back.
    const exact = await createUpload(t.url, cookie, free);
    expect(exact.status).toBe(201);
    const terminated = await fetch(uploadUrl(exact), {
      method: 'DELETE',
      headers: tusHeaders(cookie),
    });
    expect(terminated.status).toBe(204);
    expect(await reservationsOf(cookie)).toEqual([]);

    // A refused file (not a video) gives its space back too.
    const fake = path.join(dir, 'not-a-video.mp4');
    await writeFile(fake, Buffer.alloc(free, 3));
    const refused = await tusUpload(t.url, cookie, fake, { chunkBytes: 4 * 1024 * 1024 });
    expect(refused.status).toBe(422);
    expect(await reservationsOf(cookie)).toEqual([]);

    // Deleting the media frees the whole quota.
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/media/${accepted.id}`,
      headers: { cookie, origin: t.url },
    });
    expect(deleted.statusCode).toBe(204);
    expect((await createUpload(t.url, cookie, QUOTA)).status).toBe(201);
  });
});
