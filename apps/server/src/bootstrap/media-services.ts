import type { AppContext } from '../context.ts';
import { MEDIA_JOB_LEASE } from '../db/lease.ts';
import { createMediaRepository } from '../modules/media/repository.ts';
import { createMediaService } from '../modules/media/service.ts';
import { enqueueMemeAnalysis, enqueueMemeCompilation } from '../modules/memes/jobs.ts';
import { createMemeStages } from '../modules/memes/meme-stages.ts';
import { createMemeRepository } from '../modules/memes/repository.ts';
import { createMemeService } from '../modules/memes/service.ts';
import type { Notify } from '../modules/notifications/service.ts';
import { enqueueStoryRender } from '../modules/stories/jobs.ts';
import { createStoryRenderer } from '../modules/stories/renderer.ts';
import { createStoryRepository } from '../modules/stories/repository.ts';
import { createStoryService } from '../modules/stories/service.ts';
import { createUserRepository } from '../modules/users/repository.ts';
import type { Wiring } from './wiring.ts';

type MediaJobLease = { ms: number; heartbeatMs: number };

/** The user's videos (uploads, quota, ffmpeg and ffprobe), over `storage`. */
export function createMedia(
  { config, logger, database }: Wiring,
  storage: AppContext['storage'],
): AppContext['media'] {
  return createMediaService({
    repository: createMediaRepository(database.db),
    storage,
    ffmpegPath: config.media.ffmpegPath,
    ffprobePath: config.media.ffprobePath,
    userQuotaBytes: config.uploads.userQuotaBytes,
    uploadTtlMs: config.uploads.expiryMs,
    logger,
  });
}

/** Stories: the requests, and the worker's renders ('stories.render'). */
function createStories(
  { config, logger, database, boss }: Wiring,
  { media, notify, lease }: { media: AppContext['media']; notify: Notify; lease: MediaJobLease },
): Pick<AppContext, 'stories' | 'storyRenderer'> {
  const repository = createStoryRepository(database.db);
  const storyRenderer = createStoryRenderer({
    repository,
    media,
    enqueue: (storyId, enqueueOptions) => enqueueStoryRender(boss, storyId, enqueueOptions),
    ffmpegPath: config.media.ffmpegPath,
    lease,
    logger,
    notify,
  });
  const stories = createStoryService({
    repository,
    media,
    users: createUserRepository(database.db),
    enqueue: (storyId) => enqueueStoryRender(boss, storyId),
    stopRunning: (storyId, why) => storyRenderer.stop(storyId, why),
    logger,
  });
  return { stories, storyRenderer };
}

/** The meme detector: the requests, and the worker's stages ('memes.analyse', 'memes.compile'). */
function createMemes(
  { config, logger, database, boss }: Wiring,
  parts: Pick<AppContext, 'media' | 'storage'> & { notify: Notify; lease: MediaJobLease },
): Pick<AppContext, 'memes' | 'memeStages'> {
  const { media, storage } = parts;
  const repository = createMemeRepository(database.db);
  const memeStages = createMemeStages({
    repository,
    media,
    storage,
    enqueueAnalysis: (id, enqueueOptions) => enqueueMemeAnalysis(boss, id, enqueueOptions),
    enqueueCompilation: (id, enqueueOptions) => enqueueMemeCompilation(boss, id, enqueueOptions),
    ffmpegPath: config.media.ffmpegPath,
    ffprobePath: config.media.ffprobePath,
    ytDlpPath: config.media.ytDlpPath,
    youtubeTestOrigin: config.memes.youtubeTestOrigin,
    compilePreset: config.memes.compilePreset,
    lease: parts.lease,
    logger,
    notify: parts.notify,
  });
  const memes = createMemeService({
    repository,
    media,
    storage,
    users: createUserRepository(database.db),
    enqueueAnalysis: (id) => enqueueMemeAnalysis(boss, id),
    enqueueCompilation: (id) => enqueueMemeCompilation(boss, id),
    stopRunning: (id, why) => memeStages.stop(id, why),
    logger,
  });
  return { memes, memeStages };
}

/** What is made of the user's videos in the worker: stories and meme compilations. */
export function createMediaPipelines(
  wiring: Wiring,
  parts: Pick<AppContext, 'media' | 'storage'> & { notify: Notify },
): Pick<AppContext, 'stories' | 'storyRenderer' | 'memes' | 'memeStages'> {
  // Renewed as often as MEDIA_JOB_LEASE says; held for MEDIA_JOB_LEASE_MS (default its 60 s).
  const lease = {
    ms: wiring.config.worker.mediaJobLeaseMs,
    heartbeatMs: MEDIA_JOB_LEASE.heartbeatMs,
  };
  return {
    ...createStories(wiring, { media: parts.media, notify: parts.notify, lease }),
    ...createMemes(wiring, { ...parts, lease }),
  };
}
