import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { addVideo, api, createSchedule, scheduleBody } from '../schedules/test-kit.ts';
import { enqueuePublish } from './jobs.ts';
import { createTikTokDriver } from '../../tiktok/tiktok-driver.ts';
import { createPublisher } from './publisher.ts';
import { createPublishingRepository } from './repository.ts';
import { CONFIRM_LEAD_MS } from './run-leads.ts';
import { usePublishingTestApp } from './test-kit.ts';

const kit = usePublishingTestApp();
const { ledgerPostsTitled, postNamed, waitForStatus, freshAccount, publishNow } = kit;

describe('publishing through the sandbox', () => {
  it('publishes an immediate public post once, byte for byte, with its page on the sandbox', async () => {
    const { post, sha256 } = await publishNow('First post #hello');
    const done = await waitForStatus(post.id, ['completed', 'failed']);
    expect(done.status, done.failReason ?? '').toBe('completed');
    const [published, ...others] = ledgerPostsTitled('First post #hello');
    expect(others).toHaveLength(0);
    expect(published?.sha256).toBe(sha256);
    expect(published?.status).toBe('PUBLISH_COMPLETE');
    expect(published?.post_info).toMatchObject({
      privacy_level: 'PUBLIC_TO_EVERYONE',
      disable_comment: false,
      disable_duet: true,
    });
    expect(done.tiktokPostId).toBe(published?.post_ids[0]);
    // Sandbox mode: the sandbox's own page, at TikTok's address shape (not tiktok.com).
    expect(done.tiktokPostUrl).toBe(
      `${kit.t.url}/sandbox/tiktok/@${done.accountUsername}/video/${published?.post_ids[0]}`,
    );
    const page = await fetch(done.tiktokPostUrl ?? '');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`@${done.accountUsername}`);
    expect(html).toContain('First post #hello');
  });

  // Issue 12: the creator's 'AI-generated content' label and chosen cover frame reach TikTok.
  it('sends is_aigc and the chosen cover frame in post_info', async () => {
    const { id: account } = await freshAccount();
    const video = await addVideo(kit.t, kit.user, kit.dir, 'covered');
    const created = await createSchedule(kit.t, kit.user, {
      ...scheduleBody(account, [video.mediaId], { isAigc: true }),
      posts: [{ mediaId: video.mediaId, title: 'Covered #ai', coverTimestampMs: 700 }],
    });
    const done = await waitForStatus(created.posts[0]?.id ?? '', ['completed', 'failed']);
    expect(done.status, done.failReason ?? '').toBe('completed');
    const [published] = ledgerPostsTitled('Covered #ai');
    expect(published?.post_info).toMatchObject({ is_aigc: true, video_cover_timestamp_ms: 700 });

    // Without a choice, TikTok picks the cover and the label stays off.
    const { post } = await publishNow('Plain cover');
    await waitForStatus(post.id, ['completed', 'failed']);
    expect(ledgerPostsTitled('Plain cover')[0]?.post_info).toMatchObject({
      is_aigc: false,
      video_cover_timestamp_ms: null,
    });
  });

  it('does not publish before the due time, then publishes after it', async () => {
    const { id: account } = await freshAccount();
    const video = await addVideo(kit.t, kit.user, kit.dir, 'later');
    const created = await createSchedule(kit.t, kit.user, {
      ...scheduleBody(account, [video.mediaId], {
        publishType: 'scheduled',
        date: '2099-01-01',
        time: '09:00',
      }),
      posts: [{ mediaId: video.mediaId, title: 'Later' }],
    });
    const id = created.posts[0]?.id ?? '';
    const dueAt = new Date(Date.now() + 4_000);
    const moved = await api(kit.t, kit.user.cookie, 'POST', `/api/posts/${id}/reschedule`, {
      dueAt: dueAt.toISOString(),
    });
    expect(moved.statusCode).toBe(200);
    // Until the due time, TikTok hears nothing about it (the 2099 job fires never; the new one at
    // dueAt), and the post stays pending until its confirmation, CONFIRM_LEAD_MS before.
    while (Date.now() < dueAt.getTime() - 300) {
      expect(ledgerPostsTitled('Later')).toHaveLength(0);
      const readAt = Date.now();
      const status = (await postNamed(id))?.status;
      if (readAt < dueAt.getTime() - CONFIRM_LEAD_MS - 100) expect(status).toBe('pending');
      else expect(['pending', 'publishing']).toContain(status);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const done = await waitForStatus(id, ['completed', 'failed']);
    expect(done.status).toBe('completed');
    const [published] = ledgerPostsTitled('Later');
    expect(published?.sha256).toBe(video.sha256);
    expect(Date.parse(published?.init_at ?? '')).toBeGreaterThanOrEqual(dueAt.getTime());
  });

  it('never re-inits after a crash between sending video init and storing publish_id', async () => {
    const { id: account } = await freshAccount();
    const video = await addVideo(kit.t, kit.user, kit.dir, 'unknown');
    const created = await createSchedule(kit.t, kit.user, {
      ...scheduleBody(account, [video.mediaId], {
        publishType: 'scheduled',
        date: '2099-01-01',
        time: '09:00',
      }),
      posts: [{ mediaId: video.mediaId, title: 'Unknown outcome' }],
    });
    const id = created.posts[0]?.id ?? '';
    // What a worker killed right after sending video/init leaves behind (its lease expired).
    await kit.t.context.database.db
      .updateTable('posts')
      .set({
        status: 'publishing',
        init_started_at: new Date(),
        due_at: new Date(),
        lease_owner: 'dead',
        lease_until: new Date(Date.now() - 1),
      })
      .where('id', '=', id)
      .execute();
    expect(await kit.publisher.advance(id)).toBe('failed');
    expect(await postNamed(id)).toMatchObject({
      status: 'failed',
      failReason: 'init_outcome_unknown',
    });
    expect(ledgerPostsTitled('Unknown outcome')).toHaveLength(0);
  });

  it('lets only one of two concurrent wake-ups work on a post', async () => {
    const { id: account } = await freshAccount();
    const video = await addVideo(kit.t, kit.user, kit.dir, 'twice');
    const created = await createSchedule(kit.t, kit.user, {
      ...scheduleBody(account, [video.mediaId], {
        publishType: 'scheduled',
        date: '2099-01-01',
        time: '09:00',
      }),
      posts: [{ mediaId: video.mediaId, title: 'Twice woken' }],
    });
    const id = created.posts[0]?.id ?? '';
    await kit.t.context.database.db
      .updateTable('posts')
      .set({ due_at: new Date() })
      .where('id', '=', id)
      .execute();
    // TikTok answers slowly, so the first wake-up is still working (init, upload) while the two
    // others arrive: they must find the post taken ('busy'), or its account's init slot taken
    // ('paced': it is reserved before the post is). On a loaded machine a wake-up may arrive after
    // the first let go: it may legitimately resume status polling ('waiting'), find the post
    // published ('published') or done ('not_ready'), but never start a second post.
    kit.sandbox().control.setLatency(300);
    let outcomes: string[];
    try {
      // One from another publisher (another process: only the row's lease stops it), one from
      // the same (its timer and its job firing together).
      const other = createPublisher({
        repository: createPublishingRepository(kit.t.context.database.db),
        driver: createTikTokDriver(kit.t.context.tiktok),
        tokens: kit.t.context.tokens,
        storage: kit.t.context.storage,
        // Another process's wake-ups are queue jobs too (its own timers are not there).
        wake: (postId, at) => enqueuePublish(kit.t.context.boss, postId, at),
        logger: pino({ level: 'silent' }),
      });
      outcomes = await Promise.all([
        kit.publisher.advance(id),
        other.advance(id),
        kit.publisher.advance(id),
      ]);
    } finally {
      kit.sandbox().control.setLatency(0);
    }
    expect(outcomes.filter((outcome) => outcome === 'busy').length).toBeGreaterThanOrEqual(1);
    expect(outcomes.filter((outcome) => outcome === 'waiting').length).toBeGreaterThanOrEqual(1);
    const legitimate = ['busy', 'paced', 'waiting', 'published', 'not_ready'];
    expect(outcomes.filter((outcome) => !legitimate.includes(outcome))).toEqual([]);
    expect((await waitForStatus(id, ['completed', 'failed'])).status).toBe('completed');
    expect(ledgerPostsTitled('Twice woken')).toHaveLength(1);
  });
});
