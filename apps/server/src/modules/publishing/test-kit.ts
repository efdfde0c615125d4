// Helpers shared by the publishing API tests (not a test file itself).
import type { CreateScheduleInput, Post } from '@cadence/shared/schemas/schedule';
import type { LedgerPost } from '@cadence/tiktok-sandbox';
import pino from 'pino';
import { beforeAll } from 'vitest';
import { pollUntil } from '../../tiktok/sandbox-test-kit.ts';
import { createTikTokDriver } from '../../tiktok/tiktok-driver.ts';
import {
  addVideo,
  connectTikTok,
  createSchedule,
  listPosts,
  scheduleBody,
  signUp,
  useScheduleTestApp,
  type ScheduleTestApp,
  type TestUser,
} from '../schedules/test-kit.ts';
import type { NotificationEvent } from '../notifications/service.ts';
import { startPublishingWorkers } from './jobs.ts';
import type { Publisher } from './publisher.ts';
import { createPullUrls } from './pull-urls.ts';
import type { TestEnv } from '../../test-support/app.ts';

export interface PublishingTestApp extends ScheduleTestApp {
  /** The one creator every test of the file posts as. */
  readonly user: TestUser;
  /** The running publisher (real queue and handler). */
  readonly publisher: Publisher;
  ledgerPostsTitled: (title: string) => LedgerPost[];
  /** The creator's post with that id, as the API lists it. */
  postNamed: (id: string) => Promise<Post | undefined>;
  waitForStatus: (id: string, statuses: Post['status'][], timeoutMs?: number) => Promise<Post>;
  freshAccount: () => Promise<{ id: string; username: string }>;
  publishNow: (
    title: string,
    overrides?: Partial<CreateScheduleInput>,
  ) => Promise<{ post: Post; sha256: string }>;
  /**
   * A post due now whose wake-up stays in 2099: only the test's own calls touch it. On an account
   * of its own unless `accountId` is given.
   */
  duePostNobodyWakes: (title: string, accountId?: string) => Promise<string>;
}

/**
 * The real publishing workers, notifying as in production, with the platforms' one-minute
 * back-offs shortened so faults clear quickly.
 */
function startTestPublisher(context: ScheduleTestApp['t']['context']): Promise<Publisher> {
  const deps = {
    pullUrls: createPullUrls(context.config),
    boss: context.boss,
    db: context.database.db,
    urgentDb: context.database.urgentDb,
    // The sandbox's window when a test shortens it (TIKTOK_SANDBOX_RATE_LIMIT_WINDOW_MS).
    driver: createTikTokDriver(context.tiktok, {
      ...(context.config.tiktok.sandboxRateLimitWindowMs !== null && {
        initWindowMs: context.config.tiktok.sandboxRateLimitWindowMs,
      }),
    }),
    tokens: context.tokens,
    storage: context.storage,
    concurrency: context.config.worker.concurrency,
    notify: (event: NotificationEvent) => context.notifications.notify(event),
  };
  return startPublishingWorkers(deps, pino({ level: 'silent' }), {
    retryDelayCapMs: 300,
    pollingIntervalSeconds: 0.5,
  });
}

/**
 * Registers the hooks of a publishing test file: the schedules test app, one signed-up creator
 * and the real publishing workers (notifying as in production), with TikTok's one-minute
 * back-offs shortened so faults clear quickly. `env` adds to the test app's environment, read
 * when the app starts (e.g. TIKTOK_APP_AUDITED=false). The sandbox gives post ids at once unless
 * `env` sets TIKTOK_SANDBOX_POST_ID_DELAY_MS.
 */
export function usePublishingTestApp(env: TestEnv = {}): PublishingTestApp {
  // The post id comes with PUBLISH_COMPLETE unless a test is about its moderation delay.
  const base = useScheduleTestApp('cadence-publishing-', (url) => ({
    TIKTOK_SANDBOX_POST_ID_DELAY_MS: '0',
    ...(typeof env === 'function' ? env(url) : env),
  }));
  let user: TestUser | undefined;
  let publisher: Publisher | undefined;
  beforeAll(async () => {
    user = await signUp(base.t, 'creator@example.com');
    publisher = await startTestPublisher(base.t.context);
  }, 60_000);
  const creator = (): TestUser => {
    if (!user) throw new Error('the publishing test app has not started yet');
    return user;
  };

  async function postNamed(id: string): Promise<Post | undefined> {
    return (await listPosts(base.t, creator())).find((post) => post.id === id);
  }

  /**
   * Each test posts from its own TikTok account: the publisher paces video inits at 6 per minute
   * per account (TikTok's limit), and tests must not wait on each other's budget.
   */
  let accountCount = 0;
  async function freshAccount(): Promise<{ id: string; username: string }> {
    accountCount += 1;
    const username = `maya_${accountCount}`;
    return { id: await connectTikTok(base.t, creator(), username), username };
  }

  return {
    get t() {
      return base.t;
    },
    get dir() {
      return base.dir;
    },
    sandbox: base.sandbox,
    get user() {
      return creator();
    },
    get publisher() {
      if (!publisher) throw new Error('the publishing test app has not started yet');
      return publisher;
    },
    ledgerPostsTitled: (title) =>
      base
        .sandbox()
        .ledger()
        .posts.filter((post) => post.post_info?.title === title),
    async waitForStatus(id, statuses, timeoutMs = 20_000) {
      const post = await pollUntil(
        () => postNamed(id),
        (found) => found !== undefined && statuses.includes(found.status),
        { timeoutMs, intervalMs: 200 },
      );
      if (!post) throw new Error('post vanished');
      return post;
    },
    postNamed,
    freshAccount,
    async duePostNobodyWakes(title, accountId) {
      const account = accountId ?? (await freshAccount()).id;
      const video = await addVideo(base.t, creator(), base.dir, title.replace(/\W/g, '_'));
      const created = await createSchedule(base.t, creator(), {
        ...scheduleBody(account, [video.mediaId], {
          publishType: 'scheduled',
          date: '2099-01-01',
          time: '09:00',
        }),
        posts: [{ mediaId: video.mediaId, title }],
      });
      const id = created.posts[0]?.id ?? '';
      await base.t.context.database.db
        .updateTable('posts')
        .set({ due_at: new Date() })
        .where('id', '=', id)
        .execute();
      return id;
    },
    async publishNow(title, overrides = {}) {
      const { id: account } = await freshAccount();
      const video = await addVideo(base.t, creator(), base.dir, title.replace(/\W/g, '_'));
      const created = await createSchedule(base.t, creator(), {
        ...scheduleBody(account, [video.mediaId], overrides),
        posts: [{ mediaId: video.mediaId, title }],
      });
      const post = created.posts[0];
      if (!post) throw new Error('no post');
      return { post, sha256: video.sha256 };
    },
  };
}
