// What the parts of the schedule service share: their dependencies, the clock, the post view,
// the publisher's wake-ups, and reading a post of the user.
import type { Post, PostStatus } from '@cadence/shared/schemas/schedule';
import type { TranslationKey } from '@cadence/shared/translation-key';
import type { Logger } from 'pino';
import { AppError } from '../../lib/app-error.ts';
import type { TikTokClient } from '../../tiktok/tiktok-client.ts';
import type { AccountRepository } from '../accounts/repository.ts';
import { createCreatorInfoReader, type ReadCreatorInfo } from '../accounts/service.ts';
import type { TokenService } from '../accounts/token-service.ts';
import type { MediaService } from '../media/service.ts';
import type { PostingSlotRepository } from '../slots/repository.ts';
import type { UserRepository } from '../users/repository.ts';
import { wrongState } from './post-conflicts.ts';
import { postViewer, type PostViewer } from './post-view.ts';
import type { PostViewRow } from './post-view-queries.ts';
import type { ScheduleRepository } from './repository.ts';

export interface ScheduleServiceDeps {
  /** Where TikTok's video pages are: config.tiktok.authBase (the sandbox in sandbox mode). */
  tiktokWebBase: string;
  repository: ScheduleRepository;
  accounts: AccountRepository;
  tokens: TokenService;
  tiktok: TikTokClient;
  media: MediaService;
  users: Pick<UserRepository, 'isPro' | 'timeZoneOf'>;
  /** An account's posts per day of a zone that count towards the cap (PostListing.accountDayCounts). */
  dayCounts: ScheduleRepository['accountDayCounts'];
  /** TIKTOK_DAILY_POST_CAP. */
  dailyPostCap: number;
  /** TIKTOK_APP_AUDITED: false allows only 'Only me' posts to private accounts. */
  appAudited: boolean;
  /** The accounts' weekly posting slots ('Add to queue'). */
  slots: PostingSlotRepository;
  /** Queues the publisher's wake-up for a post at `at` (the publish queue, wired in bootstrap). */
  wake: (postId: string, at: Date) => Promise<void>;
  logger: Pick<Logger, 'warn'>;
  now?: () => Date;
  random?: () => number;
}

export type AccountRow = NonNullable<Awaited<ReturnType<AccountRepository['findForUser']>>>;

export interface ScheduleContext {
  deps: ScheduleServiceDeps;
  now: () => Date;
  toPost: PostViewer;
  readCreatorInfo: ReadCreatorInfo;
  /** Queues the wake-ups; a failure here is repaired by the minute sweep, so it is only logged. */
  wakeAll: (posts: readonly { id: string; dueAt: Date }[]) => Promise<void>;
}

export function createScheduleContext(deps: ScheduleServiceDeps): ScheduleContext {
  const { accounts, tokens, tiktok, wake, logger } = deps;
  const now = deps.now ?? (() => new Date());
  return {
    deps,
    now,
    toPost: postViewer(deps.tiktokWebBase),
    readCreatorInfo: createCreatorInfoReader({ accounts, tokens, tiktok, now }),
    async wakeAll(posts) {
      for (const post of posts) {
        await wake(post.id, post.dueAt).catch((error: unknown) => {
          logger.warn({ err: error, postId: post.id }, 'publish job not queued; the sweep will');
        });
      }
    },
  };
}

export async function requirePost(
  context: ScheduleContext,
  userId: string,
  id: string,
): Promise<PostViewRow> {
  const row = await context.deps.repository.findPostView(userId, id);
  // Someone else's post and a missing one look the same.
  if (!row) throw new AppError('not_found', 'No such post');
  return row;
}

/** The post as it is after a change; 409 (with `wrongStateKey`'s reason) when nothing changed. */
export async function postAfterChange(
  context: ScheduleContext,
  userId: string,
  id: string,
  changed: boolean,
  wrongStateKey: TranslationKey | ((status: PostStatus) => TranslationKey),
): Promise<Post> {
  const row = await requirePost(context, userId, id);
  if (!changed) {
    throw wrongState(
      typeof wrongStateKey === 'function' ? wrongStateKey(row.status) : wrongStateKey,
    );
  }
  return context.toPost(row);
}
