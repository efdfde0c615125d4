// Helpers shared by the schedules and publishing API tests (not a test file itself).
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { MAX_PAGE_SIZE, postPageSchema } from '@cadence/shared/schemas/planning';
import type { CreateScheduleInput, Post } from '@cadence/shared/schemas/schedule';
import type { SandboxState } from '@cadence/tiktok-sandbox';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect } from 'vitest';
import { createTestApp, signUpViaApi, type TestApp, type TestEnv } from '../../test-support/app.ts';
import { makeVideo, type FixtureVideoOptions } from '../../test-support/media-fixtures.ts';
import { consent } from '../../tiktok/sandbox-test-kit.ts';

export interface ScheduleTestApp {
  /** The listening app; valid once the file's first `beforeAll` has run. */
  readonly t: TestApp;
  /** A temporary folder for fixture videos, removed after the file. */
  readonly dir: string;
  /** The app's in-process TikTok sandbox (the test app always runs in sandbox mode). */
  sandbox: () => SandboxState;
}

/**
 * Registers the hooks of a schedules/publishing API test file: a listening test app and a fixture
 * folder for the whole file, both closed after it. Call before the file's own `beforeAll`.
 */
export function useScheduleTestApp(dirPrefix: string, env: TestEnv = {}): ScheduleTestApp {
  let t: TestApp | undefined;
  let dir: string | undefined;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), dirPrefix));
    t = await createTestApp(env, { listen: true });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  const started = <TValue>(value: TValue | undefined): TValue => {
    if (value === undefined) throw new Error('the test app has not started yet');
    return value;
  };
  return {
    get t() {
      return started(t);
    },
    get dir() {
      return started(dir);
    },
    sandbox() {
      const state = started(t).context.sandbox;
      if (!state) throw new Error('sandbox mode expected');
      return state;
    },
  };
}

export interface TestUser {
  cookie: string;
  id: string;
  email: string;
}

export function api(
  t: TestApp,
  cookie: string,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
) {
  return t.app.inject({
    method,
    url,
    headers: { cookie, origin: t.url },
    ...(payload && { payload }),
  });
}

export async function signUp(t: TestApp, email: string): Promise<TestUser> {
  const cookie = await signUpViaApi(t.app, { email }, t.url);
  const row = await sql<{ id: string }>`select id from "user" where email = ${email}`.execute(
    t.context.database.db,
  );
  const id = row.rows[0]?.id;
  if (id === undefined) throw new Error(`no user ${email}`);
  return { cookie, id, email };
}

/** Adds a TikTok account and connects it through the in-process sandbox's consent page. */
export async function connectTikTok(t: TestApp, user: TestUser, username: string): Promise<string> {
  const added = await api(t, user.cookie, 'POST', '/api/accounts', { username });
  expect(added.statusCode, added.body).toBe(201);
  const accountId = added.json<{ id: string }>().id;
  const start = await api(t, user.cookie, 'POST', `/api/accounts/${accountId}/connect`);
  expect(start.statusCode, start.body).toBe(200);
  const outcome = await consent(start.json<{ authorizeUrl: string }>().authorizeUrl, { username });
  const callback = await t.app.inject({
    url: outcome.location.pathname + outcome.location.search,
    headers: { cookie: user.cookie },
  });
  expect(callback.statusCode).toBe(302);
  return accountId;
}

/** A real (tiny) video registered as the user's media; returns its id and the file's SHA-256. */
export async function addVideo(
  t: TestApp,
  user: TestUser,
  dir: string,
  name: string,
  options: FixtureVideoOptions = {},
): Promise<{ mediaId: string; sha256: string }> {
  // The smallest picture TikTok takes (360 px a side): scheduling checks TikTok's limits.
  const file = await makeVideo(path.join(dir, `${name}.mp4`), {
    width: 360,
    height: 640,
    durationSeconds: 1,
    fps: 24,
    ...options,
  });
  const sha256 = createHash('sha256')
    .update(await readFile(file))
    .digest('hex');
  const media = await t.context.media.createFromFile(user.id, {
    localPath: file,
    kind: 'upload',
    originalName: `${name}.mp4`,
  });
  return { mediaId: media.id, sha256 };
}

export { scheduleBody } from '../../test-support/schedule-body.ts';

export async function createSchedule(
  t: TestApp,
  user: TestUser,
  body: CreateScheduleInput,
): Promise<{ scheduleId: string; posts: Post[] }> {
  const response = await api(t, user.cookie, 'POST', '/api/schedules', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

/** Every post of `user`: the queue's pages, then the history's (the API has no unbounded list). */
export async function listPosts(t: TestApp, user: TestUser): Promise<Post[]> {
  const posts: Post[] = [];
  for (const list of ['queue', 'history'] as const) {
    let cursor: string | null = null;
    do {
      const query = `limit=${MAX_PAGE_SIZE}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
      const response = await api(t, user.cookie, 'GET', `/api/posts/${list}?${query}`);
      expect(response.statusCode, response.body).toBe(200);
      const page = postPageSchema.parse(response.json());
      posts.push(...page.posts);
      cursor = page.nextCursor;
    } while (cursor !== null);
  }
  return posts;
}

/** The per-field messages of a refused request (validation_failed's `fields`). */
export const fieldsOf = (response: { json: <TBody>() => TBody }) =>
  response.json<{ fields?: Record<string, string> }>().fields;

export interface TwoCreators {
  alice: TestUser;
  bob: TestUser;
  aliceAccount: string;
  bobAccount: string;
  /** Alice's videos, ready to schedule. */
  videos: string[];
  bobVideo: string;
}

/**
 * An owner and a stranger: Alice, her TikTok account `alice_<tag>` and `videoCount` videos; Bob,
 * his account `bob_<tag>` and one video.
 */
export async function twoCreators(
  kit: ScheduleTestApp,
  tag: string,
  videoCount: number,
): Promise<TwoCreators> {
  const alice = await signUp(kit.t, `alice.${tag}@example.com`);
  const bob = await signUp(kit.t, `bob.${tag}@example.com`);
  const aliceAccount = await connectTikTok(kit.t, alice, `alice_${tag}`);
  const bobAccount = await connectTikTok(kit.t, bob, `bob_${tag}`);
  const videos: string[] = [];
  for (let index = 1; index <= videoCount; index++) {
    videos.push((await addVideo(kit.t, alice, kit.dir, `${tag}-alice-${index}`)).mediaId);
  }
  const bobVideo = (await addVideo(kit.t, bob, kit.dir, `${tag}-bob`)).mediaId;
  return { alice, bob, aliceAccount, bobAccount, videos, bobVideo };
}
