import { randomUUID } from 'node:crypto';
import {
  MAX_ACTIVE_STORIES_PER_USER,
  type CreateStoriesInput,
  type Story,
} from '@cadence/shared/schemas/story';
import type { TranslationKey } from '@cadence/shared/translation-key';
import type { Logger } from 'pino';
import { AppError } from '../../lib/app-error.ts';
import type { MediaService } from '../media/service.ts';
import type { UserRepository } from '../users/repository.ts';
import { discardRender } from './renderer.ts';
import { pairStories } from './render/pair-stories.ts';
import type { StoryRepository, StoryRow } from './repository.ts';
import { storyView } from './story-view.ts';

export interface StoryServiceDeps {
  repository: StoryRepository;
  media: MediaService;
  users: Pick<UserRepository, 'isPro'>;
  /** Queues the render job (pg-boss 'stories.render'). */
  enqueue: (storyId: string) => Promise<void>;
  /** Stops the story's render if it runs in this process (renderer.ts `stop`). */
  stopRunning: (storyId: string, why: string) => void;
  logger: Logger;
  /** Active stories allowed per user (default MAX_ACTIVE_STORIES_PER_USER). */
  maxActivePerUser?: number;
}

/**
 * Split-screen stories (Pro), as the API sees them: requests, listing, cancel, delete. The
 * render itself runs in the worker (renderer.ts).
 */
export function createStoryService(deps: StoryServiceDeps) {
  const { repository, media, users, enqueue, logger } = deps;
  const maxActive = deps.maxActivePerUser ?? MAX_ACTIVE_STORIES_PER_USER;

  async function assertPro(userId: string): Promise<void> {
    if (!(await users.isPro(userId))) {
      throw new AppError('pro_required', 'Stories are a Pro feature');
    }
  }

  async function toStories(userId: string, rows: StoryRow[]): Promise<Story[]> {
    // The rendered videos, and the sources whose names tell the stories apart.
    const views = await media.viewsById(
      userId,
      rows.flatMap((row) =>
        [row.result_media_id, row.top_media_id, row.bottom_media_id].filter(
          (id): id is string => id !== null,
        ),
      ),
    );
    const view = (id: string | null) => (id === null ? null : (views.get(id) ?? null));
    return rows.map((row) =>
      storyView(row, {
        result: view(row.result_media_id),
        top: view(row.top_media_id),
        bottom: view(row.bottom_media_id),
      }),
    );
  }

  async function requireStory(userId: string, id: string): Promise<StoryRow> {
    const row = await repository.findForUser(userId, id);
    if (!row) throw new AppError('not_found', 'No such story');
    return row;
  }

  return {
    assertPro,

    async list(userId: string): Promise<Story[]> {
      await assertPro(userId);
      return toStories(userId, await repository.listForUser(userId));
    },

    /** One story per top video, bottoms in turn; refused whole when any video is not the user's. */
    async create(userId: string, input: Required<CreateStoriesInput>): Promise<Story[]> {
      await assertPro(userId);
      const wanted = [...new Set([...input.topMediaIds, ...input.bottomMediaIds])];
      const owned = new Set((await media.findMany(userId, wanted)).map((row) => row.id));
      const fields: Record<string, TranslationKey> = {};
      if (input.topMediaIds.some((id) => !owned.has(id)))
        fields.topMediaIds = 'errors.invalidVideo';
      if (input.bottomMediaIds.some((id) => !owned.has(id)))
        fields.bottomMediaIds = 'errors.invalidVideo';
      if (Object.keys(fields).length > 0) {
        throw new AppError('validation_failed', 'Unknown video', fields);
      }
      const createdAt = new Date();
      const rows = pairStories(input.topMediaIds, input.bottomMediaIds).map((pair, position) => ({
        id: randomUUID(),
        user_id: userId,
        top_media_id: pair.top,
        bottom_media_id: pair.bottom,
        mix_bottom_audio: input.mixBottomAudio,
        position,
        created_at: createdAt,
      }));
      const inserted = await repository.insertWithinLimit(userId, rows, maxActive);
      if (!inserted) {
        throw new AppError('rate_limited', 'Too many stories rendering', {
          stories: 'stories.errors.tooManyRenders',
        });
      }
      try {
        for (const row of inserted) await enqueue(row.id);
      } catch (error) {
        logger.error({ err: error }, 'could not queue story renders');
        await Promise.all(
          inserted.map((row) => repository.failUnleased(row.id, 'stories.failures.internal')),
        );
        throw new AppError('unavailable', 'Render queue unavailable');
      }
      return toStories(userId, inserted);
    },

    /** A queued story is just cancelled; a rendering one also has its ffmpeg killed. */
    async cancel(userId: string, id: string): Promise<Story> {
      await assertPro(userId);
      const cancelled = await repository.cancel(userId, id);
      if (!cancelled) {
        await requireStory(userId, id);
        throw new AppError('conflict', 'Story is not queued or rendering', {
          stories: 'stories.errors.notCancellable',
        });
      }
      deps.stopRunning(id, 'cancelled');
      const [story] = await toStories(userId, [cancelled]);
      if (!story) throw new Error('unreachable: one row in, one story out');
      return story;
    },

    /** Deletes the story (stopping its render) and its video, unless a scheduled post uses it. */
    async remove(userId: string, id: string): Promise<void> {
      await assertPro(userId);
      const row = await repository.delete(userId, id);
      if (!row) throw new AppError('not_found', 'No such story');
      deps.stopRunning(id, 'deleted');
      if (row.result_media_id) await discardRender(media, logger, userId, row.result_media_id);
    },
  };
}

export type StoryService = ReturnType<typeof createStoryService>;
