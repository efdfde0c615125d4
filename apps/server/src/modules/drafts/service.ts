import type { Draft, DraftBody, ScheduleDraft } from '@cadence/shared/schemas/planning';
import { privacyLevelSchema, type Post } from '@cadence/shared/schemas/schedule';
import { createScheduleSchema } from '@cadence/shared/schemas/schedule';
import type { TranslationKey } from '@cadence/shared/translation-key';
import { isForeignKeyViolation } from '../../db/pg-errors.ts';
import { AppError, fieldsFromZod } from '../../lib/app-error.ts';
import type { AccountRepository } from '../accounts/repository.ts';
import type { MediaService } from '../media/service.ts';
import type { ScheduleService } from '../schedules/service.ts';
import type { DraftContent, DraftRepository, DraftRow } from './repository.ts';

/** Drafts one user may keep (the list is one bounded answer). */
export const MAX_DRAFTS = 100;

export const draftErrorKeys = {
  tooManyDrafts: 'schedules.errors.tooManyDrafts',
} as const satisfies Record<string, TranslationKey>;

export interface DraftServiceDeps {
  repository: DraftRepository;
  accounts: Pick<AccountRepository, 'findForUser'>;
  media: Pick<MediaService, 'findMany'>;
  schedules: Pick<ScheduleService, 'create'>;
}

function toDraft(row: DraftRow): Draft {
  const privacy = privacyLevelSchema.safeParse(row.privacy_level);
  return {
    id: row.id,
    accountId: row.account_id,
    videos: row.videos.map((video) => ({
      mediaId: video.media_id,
      title: video.title,
      thumbnailUrl: video.thumbnail_key
        ? `/api/media/${encodeURIComponent(video.media_id)}/thumbnail`
        : null,
      coverTimestampMs: video.cover_timestamp_ms,
    })),
    privacyLevel: privacy.success ? privacy.data : null,
    allowComment: row.allow_comment,
    allowDuet: row.allow_duet,
    allowStitch: row.allow_stitch,
    commercialContent: row.commercial_content,
    isAigc: row.is_aigc,
    delivery: row.delivery,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** The body's content, once its account and videos are known to be the user's. */
async function checkedContent(
  deps: Pick<DraftServiceDeps, 'accounts' | 'media'>,
  userId: string,
  body: DraftBody,
): Promise<DraftContent> {
  const { accounts, media } = deps;
  const { accountId = null, mediaIds, posts = [] } = body;
  if (accountId !== null && !(await accounts.findForUser(userId, accountId))) {
    throw new AppError('validation_failed', 'No such TikTok account', {
      accountId: 'errors.selectTikTokAccount',
    });
  }
  const found = await media.findMany(userId, mediaIds);
  if (found.length !== new Set(mediaIds).size) {
    throw new AppError('validation_failed', 'Unknown video', {
      mediaIds: 'errors.invalidVideo',
    });
  }
  const captions = new Map(posts.map((post) => [post.mediaId, post]));
  return {
    accountId,
    videos: mediaIds.map((mediaId) => ({
      mediaId,
      title: captions.get(mediaId)?.title ?? '',
      coverTimestampMs: captions.get(mediaId)?.coverTimestampMs ?? null,
    })),
    privacyLevel: body.privacyLevel ?? null,
    allowComment: body.allowComment ?? false,
    allowDuet: body.allowDuet ?? false,
    allowStitch: body.allowStitch ?? false,
    commercialContent: body.commercialContent ?? {
      enabled: false,
      yourBrand: false,
      brandedContent: false,
    },
    isAigc: body.isAigc ?? false,
    delivery: body.delivery ?? 'direct',
  };
}

/** A video or account deleted between the check and the write: the same 400 as the check's. */
async function writing<TResult>(write: () => Promise<TResult>): Promise<TResult> {
  try {
    return await write();
  } catch (error) {
    if (isForeignKeyViolation(error)) {
      throw new AppError('validation_failed', 'A video or the account is gone', {
        mediaIds: 'errors.invalidVideo',
      });
    }
    throw error;
  }
}

/** A draft's content as the form's request (its timing and draftId added by the caller). */
function draftAsRequest(draft: DraftRow) {
  return {
    accountId: draft.account_id,
    mediaIds: draft.videos.map((video) => video.media_id),
    posts: draft.videos.map((video) => ({
      mediaId: video.media_id,
      title: video.title,
      ...(video.cover_timestamp_ms !== null && { coverTimestampMs: video.cover_timestamp_ms }),
    })),
    // A draft without a privacy level gets that field's message (an inbox draft needs none).
    privacyLevel: draft.privacy_level ?? undefined,
    allowComment: draft.allow_comment,
    allowDuet: draft.allow_duet,
    allowStitch: draft.allow_stitch,
    commercialContent: draft.commercial_content,
    isAigc: draft.is_aigc,
    delivery: draft.delivery,
  };
}

/** Drafts: the schedule form saved without a time, and turned into a schedule once given one. */
export function createDraftService(deps: DraftServiceDeps) {
  const { repository, schedules } = deps;

  async function requireDraft(userId: string, id: string): Promise<DraftRow> {
    const row = await repository.find(userId, id);
    if (!row) throw new AppError('not_found', 'No such draft');
    return row;
  }

  return {
    async list(userId: string): Promise<Draft[]> {
      return (await repository.list(userId, MAX_DRAFTS)).map(toDraft);
    },

    async get(userId: string, id: string): Promise<Draft> {
      return toDraft(await requireDraft(userId, id));
    },

    async create(userId: string, body: DraftBody): Promise<Draft> {
      const content = await checkedContent(deps, userId, body);
      if ((await repository.count(userId)) >= MAX_DRAFTS) {
        throw new AppError('conflict', 'Too many drafts', { _: draftErrorKeys.tooManyDrafts });
      }
      const id = await writing(() => repository.insert(userId, content));
      return toDraft(await requireDraft(userId, id));
    },

    async update(userId: string, id: string, body: DraftBody): Promise<Draft> {
      await requireDraft(userId, id);
      const content = await checkedContent(deps, userId, body);
      if (!(await writing(() => repository.update(userId, id, content)))) {
        throw new AppError('not_found', 'No such draft');
      }
      return toDraft(await requireDraft(userId, id));
    },

    async remove(userId: string, id: string): Promise<void> {
      if (!(await repository.delete(userId, id))) throw new AppError('not_found', 'No such draft');
    },

    /**
     * The draft as a schedule at the time given: validated exactly as the form's request (a draft
     * without an account or a privacy level gets those fields' messages), created like it, and
     * deleted in the same transaction.
     */
    async schedule(
      userId: string,
      id: string,
      timing: ScheduleDraft,
    ): Promise<{ scheduleId: string; posts: Post[] }> {
      const draft = await requireDraft(userId, id);
      const request = createScheduleSchema.safeParse({
        ...draftAsRequest(draft),
        ...timing,
        draftId: id,
      });
      if (!request.success) {
        throw new AppError('validation_failed', 'The draft is not complete', {
          ...fieldsFromZod(request.error),
        } satisfies Record<string, TranslationKey>);
      }
      return schedules.create(userId, request.data);
    },
  };
}

export type DraftService = ReturnType<typeof createDraftService>;
