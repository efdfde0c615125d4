import type { CreateScheduleInput } from '@cadence/shared/schemas/schedule';
import { sql } from 'kysely';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { TikTokApiError } from '../../tiktok/tiktok-error.ts';
import type { TokenService } from '../accounts/token-service.ts';
import { addVideo, api, createSchedule, scheduleBody } from '../schedules/test-kit.ts';
import { createTikTokDriver } from '../../tiktok/tiktok-driver.ts';
import { createPublisher } from './publisher.ts';
import { INITS_PER_WINDOW } from '../../tiktok/tiktok-driver.ts';
import { createPublishingRepository } from './repository.ts';
import { usePublishingTestApp } from './test-kit.ts';

const kit = usePublishingTestApp();
const { sandbox, ledgerPostsTitled, waitForStatus, freshAccount, publishNow } = kit;

/** Publishes a post now; it must complete, with exactly one post of its bytes at TikTok. */
async function expectPublishedOnce(
  title: string,
  overrides: Partial<CreateScheduleInput> = {},
): Promise<void> {
  const { post, sha256 } = await publishNow(title, overrides);
  const done = await waitForStatus(post.id, ['completed', 'failed'], 30_000);
  expect(done.status, done.failReason ?? '').toBe('completed');
  const published = ledgerPostsTitled(title);
  expect(published).toHaveLength(1);
  expect(published[0]?.sha256).toBe(sha256);
}

/** TikTok answers the next video init: the access token is invalid (withAccessToken refreshes it). */
function refuseNextInitToken(): void {
  sandbox().control.failNext('video_init', {
    type: 'error_body',
    code: 'access_token_invalid',
    status: 401,
  });
}

/**
 * A publisher of its own (its wake-ups ignored) whose token service runs `onRefused` when TikTok
 * refuses a token, before refreshing it; a throw from `onRefused` is what the refresh threw.
 */
function publisherOnRefusedToken(onRefused: () => Promise<void> | void) {
  const { context } = kit.t;
  const tokens: TokenService = {
    ...context.tokens,
    withAccessToken: (accountId, call, known) =>
      context.tokens.withAccessToken(
        accountId,
        async (token) => {
          try {
            return await call(token);
          } catch (error) {
            if (error instanceof TikTokApiError && error.kind === 'auth') await onRefused();
            throw error;
          }
        },
        known,
      ),
  };
  return createPublisher({
    repository: createPublishingRepository(context.database.db),
    driver: createTikTokDriver(context.tiktok),
    tokens,
    storage: context.storage,
    wake: async () => undefined,
    logger: pino({ level: 'silent' }),
  });
}

/** What the post's row says of its init. */
function initState(id: string) {
  return kit.t.context.database.db
    .selectFrom('posts')
    .select(['status', 'fail_reason', 'init_started_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

/** The app's publisher runs the post again: it completes, posted once at TikTok. */
async function expectNextRunPublishesOnce(id: string, title: string): Promise<void> {
  await kit.publisher.advance(id);
  const done = await waitForStatus(id, ['completed', 'failed'], 30_000);
  expect(done.status, done.failReason ?? '').toBe('completed');
  expect(ledgerPostsTitled(title)).toHaveLength(1);
}

describe('publishing through TikTok faults', () => {
  it('survives 5xx and 429 answers to video init and publishes exactly once', async () => {
    sandbox().control.failNext('video_init', { type: 'http_error', status: 503 }, 2);
    sandbox().control.failNext(
      'video_init',
      { type: 'error_body', code: 'rate_limit_exceeded', status: 429 },
      1,
    );
    await expectPublishedOnce('Through faults');
  });

  it('refreshes the token when TikTok refuses it at creator_info, then publishes once', async () => {
    // creator_info and the init share one token read: a refused token is still refreshed and the
    // post goes on, instead of failing before anything was sent.
    sandbox().control.failNext('creator_info', {
      type: 'error_body',
      code: 'access_token_invalid',
      status: 401,
    });
    await expectPublishedOnce('Token refused at creator_info');
  });

  it('refreshes the token when TikTok refuses it at video init, then publishes once, even with one slot left', async () => {
    // The retry on the refreshed token used to confirm its init slot under the stamp it had
    // before TikTok's answer (settling gives the slot a new one), found no such slot and reserved
    // another. With the account's window full, the post was paced with init_started_at still set,
    // and its next run failed it as init_outcome_unknown although TikTok had created nothing.
    const { id: account } = await freshAccount();
    // Five inits answered 50 s ago: the window holds one more for about 11 s.
    await sql`insert into tiktok_init_pacing (account_id, recent_inits)
      values (${account}, array(select clock_timestamp() - interval '50 seconds'
        + n * interval '1 millisecond' from generate_series(1, ${INITS_PER_WINDOW - 1}) n))`.execute(
      kit.t.context.database.db,
    );
    refuseNextInitToken();
    await expectPublishedOnce('Token refused at video init', { accountId: account });
  });

  it('retries, instead of calling the outcome unknown, when the refresh after a refused init times out', async () => {
    // The refresh's own timeout was taken for the init's (the init had been answered 401): the
    // post failed as init_outcome_unknown although nothing of it was in flight at TikTok.
    const title = 'Refresh timed out after a refused init';
    const id = await kit.duePostNobodyWakes(title);
    const publisher = publisherOnRefusedToken(() => {
      throw new TikTokApiError({ operation: 'token', code: 'timeout', httpStatus: null });
    });
    refuseNextInitToken();
    await expect(publisher.advance(id)).resolves.toBe('retrying');
    const row = await initState(id);
    expect(row).toMatchObject({ fail_reason: null, init_started_at: null });
    expect(row.status).not.toBe('failed');
    await expectNextRunPublishesOnce(id, title);
  });

  it('paces, with no init in flight, a post whose window filled while its refused token was refreshed', async () => {
    // Other posts of the account took the window while the token was refreshed: the retry has no
    // slot and the post waits. It used to wait with init_started_at still set by the refused
    // init, and its next run failed it as init_outcome_unknown.
    const { db } = kit.t.context.database;
    const title = 'Window filled during a refresh';
    const id = await kit.duePostNobodyWakes(title);
    const { account_id: account } = await db
      .selectFrom('posts')
      .select('account_id')
      .where('id', '=', id)
      .where('account_id', 'is not', null)
      .$narrowType<{ account_id: string }>()
      .executeTakeFirstOrThrow();
    const publisher = publisherOnRefusedToken(async () => {
      await sql`update tiktok_init_pacing set recent_inits = array(select clock_timestamp()
        + n * interval '1 millisecond' from generate_series(1, ${INITS_PER_WINDOW}) n)
        where account_id = ${account}`.execute(db);
    });
    refuseNextInitToken();
    await expect(publisher.advance(id)).resolves.toBe('paced');
    expect(await initState(id)).toEqual({
      status: 'publishing',
      fail_reason: null,
      init_started_at: null,
    });
    // Once the window has room, the post is published once.
    await db.deleteFrom('tiktok_init_pacing').where('account_id', '=', account).execute();
    await expectNextRunPublishesOnce(id, title);
  });

  it('fails at once with TikTok’s reason on a permanent init error, posting nothing', async () => {
    sandbox().control.failNext('video_init', {
      type: 'error_body',
      code: 'privacy_level_option_mismatch',
      status: 403,
    });
    const { post } = await publishNow('Refused');
    const done = await waitForStatus(post.id, ['completed', 'failed']);
    expect(done).toMatchObject({ status: 'failed', failReason: 'privacy_level_option_mismatch' });
    expect(ledgerPostsTitled('Refused')).toHaveLength(0);
  });

  it('fails at once as media_missing when the stored video is gone, creating nothing on TikTok', async () => {
    const { id: account } = await freshAccount();
    const video = await addVideo(kit.t, kit.user, kit.dir, 'vanished');
    const created = await createSchedule(kit.t, kit.user, {
      ...scheduleBody(account, [video.mediaId], {
        publishType: 'scheduled',
        date: '2099-01-01',
        time: '09:00',
      }),
      posts: [{ mediaId: video.mediaId, title: 'Vanished' }],
    });
    const id = created.posts[0]?.id ?? '';
    const media = await kit.t.context.database.db
      .selectFrom('media')
      .select('storage_key')
      .where('id', '=', video.mediaId)
      .executeTakeFirstOrThrow();
    await kit.t.context.storage.delete(media.storage_key);
    await api(kit.t, kit.user.cookie, 'POST', `/api/posts/${id}/reschedule`, {
      dueAt: new Date(Date.now() + 500).toISOString(),
    });
    const done = await waitForStatus(id, ['completed', 'failed']);
    expect(done).toMatchObject({ status: 'failed', failReason: 'media_missing' });
    expect(
      sandbox()
        .ledger()
        .posts.filter((post) => post.post_info?.title === 'Vanished'),
    ).toEqual([]);
  });

  it('fails with the code when the creator cannot post at publish time', async () => {
    const { id: account, username } = await freshAccount();
    const video = await addVideo(kit.t, kit.user, kit.dir, 'spam');
    const created = await createSchedule(kit.t, kit.user, {
      ...scheduleBody(account, [video.mediaId], {
        publishType: 'scheduled',
        date: '2099-01-01',
        time: '09:00',
      }),
      posts: [{ mediaId: video.mediaId, title: 'Spam risk' }],
    });
    const id = created.posts[0]?.id ?? '';
    // (spam_risk_too_many_posts is postponed instead: daily-cap.db.test.ts.)
    sandbox().control.setUserFlags(
      { username },
      { cannotPost: 'spam_risk_user_banned_from_posting' },
    );
    try {
      await api(kit.t, kit.user.cookie, 'POST', `/api/posts/${id}/reschedule`, {
        dueAt: new Date(Date.now() + 500).toISOString(),
      });
      const done = await waitForStatus(id, ['completed', 'failed']);
      expect(done).toMatchObject({
        status: 'failed',
        failReason: 'spam_risk_user_banned_from_posting',
      });
    } finally {
      sandbox().control.setUserFlags({ username }, { cannotPost: null });
    }
    // Retry puts it back in the queue and it publishes.
    const retried = await api(kit.t, kit.user.cookie, 'POST', `/api/posts/${id}/retry`);
    expect(retried.statusCode).toBe(200);
    expect((await waitForStatus(id, ['completed', 'failed'])).status).toBe('completed');
    expect(ledgerPostsTitled('Spam risk')).toHaveLength(1);
  });
});
