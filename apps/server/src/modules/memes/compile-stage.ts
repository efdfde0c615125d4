import path from 'node:path';
import type { Logger } from 'pino';
import type { X264Preset } from '../../media/x264.ts';
import type { MediaStorage } from '../../storage/media-storage.ts';
import { expectedRenderBytes, type MediaService } from '../media/service.ts';
import type { Notify } from '../notifications/service.ts';
import { compileHighlights } from './engine/compile.ts';
import { withSourceFile } from './meme-source.ts';
import { compilationName, compilationPlan, StageStoppedError } from './meme-state.ts';
import type { MemeRepository } from './repository.ts';
import type { StageRun } from './stage-lease.ts';

export interface CompileStageDeps {
  repository: MemeRepository;
  media: MediaService;
  storage: MediaStorage;
  ffmpegPath: string;
  /** x264 preset of the compilation (default 'veryfast'). */
  compilePreset?: X264Preset;
  logger: Logger;
  /** Tells the owner its compilation is ready (bell, email). */
  notify?: Notify;
}

async function discardMedia(
  { media, logger }: CompileStageDeps,
  userId: string,
  mediaId: string,
): Promise<void> {
  await media.remove(userId, mediaId).catch((error: unknown) => {
    logger.info({ err: error, mediaId }, 'an unwanted compilation was kept');
  });
}

/** 'memes.compile': the 1080×1920 compilation of the selected extracts, stored as media. */
export async function compileStage(deps: CompileStageDeps, run: StageRun): Promise<void> {
  const { row, lease, workDir } = run;
  const { media } = deps;
  const { selected, seconds } = compilationPlan(row.extracts);
  if (selected.length === 0) throw new Error('a compilation needs at least one extract');
  const outputPath = path.join(workDir, 'compilation.mp4');
  // No compilation the user has no room to keep (the stored file's real size is checked again).
  await media.assertRoomFor(row.user_id, expectedRenderBytes(seconds));
  await run.leased((signal, onProgress) =>
    withSourceFile(deps, row, (inputPath) =>
      compileHighlights({
        ffmpegPath: deps.ffmpegPath,
        inputPath,
        extracts: selected,
        layout: row.layout,
        hasAudio: row.has_audio ?? false,
        outputPath,
        preset: deps.compilePreset ?? 'veryfast',
        signal,
        onProgress,
      }),
    ),
  );
  const result = await media.createFromFile(row.user_id, {
    localPath: outputPath,
    kind: 'compilation',
    originalName: compilationName(row.title),
  });
  if (!(await deps.repository.complete(row.id, lease.owner, result.id))) {
    await discardMedia(deps, row.user_id, result.id);
    throw new StageStoppedError('cancelled after the compilation');
  }
  // A recompile is a new compilation: the lease that completed it names the event.
  await deps.notify?.({
    userId: row.user_id,
    type: 'compilation_ready',
    dedupeKey: `compilation_ready:${row.id}:${lease.owner}`,
    data: { analysisId: row.id },
  });
  // The previous compilation is superseded; one already scheduled stays (media refuses).
  if (row.result_media_id && row.result_media_id !== result.id) {
    await discardMedia(deps, row.user_id, row.result_media_id);
  }
}
