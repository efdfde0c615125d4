import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import type { MediaStorage } from '../../storage/media-storage.ts';
import { putLocalFile } from '../../storage/media-storage.ts';
import type { MediaService } from '../media/service.ts';
import { analyzeVideo } from './engine/analyze.ts';
import { extractThumbnails } from './engine/compile.ts';
import { VideoFetchError, fetchYouTubeVideo } from './engine/youtube.ts';
import { parseYouTubeUrl } from './engine/youtube-url.ts';
import { sourceMediaOf, withSourceFile } from './meme-source.ts';
import { downloadKey, StageStoppedError, storedExtracts, thumbnailKey } from './meme-state.ts';
import type { MemeAnalysisRow, MemeRepository } from './repository.ts';
import type { StageRun } from './stage-lease.ts';

export interface AnalyseStageDeps {
  repository: MemeRepository;
  media: MediaService;
  storage: MediaStorage;
  /** Queue the compilation (pg-boss 'memes.compile'). */
  enqueueCompilation: (analysisId: string, options?: { delaySeconds?: number }) => Promise<void>;
  ffmpegPath: string;
  ffprobePath: string;
  ytDlpPath: string;
  /**
   * Tests and benchmarks only (YOUTUBE_TEST_ORIGIN): the loopback origin yt-dlp fetches a link's
   * video id from, in YouTube's place. Null: YouTube itself.
   */
  youtubeTestOrigin?: string | null;
  logger: Logger;
}

/** A link's video, downloaded into `workDir` and stored; its local path. */
async function download(
  deps: AnalyseStageDeps,
  { row, lease, workDir }: StageRun,
  signal: AbortSignal,
  onProgress: (fraction: number) => void,
): Promise<string> {
  // Checked again before anything is fetched, not only at the API: a row stored under an
  // older rule must not hand yt-dlp whatever text it holds.
  const link = parseYouTubeUrl(row.source_url ?? '');
  if (!link) {
    throw new VideoFetchError('unavailable', 'the stored link is not a YouTube link');
  }
  const outputDir = path.join(workDir, 'download');
  await mkdir(outputDir);
  const fetched = await fetchYouTubeVideo({
    ytDlpPath: deps.ytDlpPath,
    link,
    testOrigin: deps.youtubeTestOrigin ?? null,
    outputDir,
    ffmpegPath: deps.ffmpegPath,
    signal,
    onProgress,
  });
  const stored = downloadKey(row, fetched.filePath);
  await putLocalFile(deps.storage, stored.key, fetched.filePath, {
    contentType: stored.contentType,
  });
  const stillOurs = await deps.repository.downloaded(row.id, lease.owner, {
    sourceKey: stored.key,
    title: fetched.metadata.title,
    durationSeconds: fetched.metadata.durationSeconds,
  });
  if (!stillOurs) throw new StageStoppedError('cancelled after the download');
  return fetched.filePath;
}

/** Scores the video at `inputPath` and grabs a thumbnail per extract. */
async function analyseFile(
  deps: AnalyseStageDeps,
  row: MemeAnalysisRow,
  inputPath: string,
  workDir: string,
  signal: AbortSignal,
  onProgress: (fraction: number) => void,
) {
  const tempDir = path.join(workDir, 'analysis');
  await mkdir(tempDir, { recursive: true });
  const result = await analyzeVideo({
    ffmpegPath: deps.ffmpegPath,
    ffprobePath: deps.ffprobePath,
    inputPath,
    signal,
    onProgress: (fraction) => onProgress(fraction * 0.9),
    tempDir,
  });
  let thumbnails: (string | null)[] = result.extracts.map(() => null);
  try {
    thumbnails = await extractThumbnails({
      ffmpegPath: deps.ffmpegPath,
      inputPath,
      extracts: result.extracts,
      outputDir: workDir,
      signal,
    });
  } catch (error) {
    if (signal.aborted) throw error;
    // Extracts without pictures are still extracts: the list shows a placeholder.
    deps.logger.warn({ err: error, analysisId: row.id }, 'meme thumbnails failed');
  }
  return { result, thumbnails };
}

/** The stored thumbnails' keys, one per extract (null where there is no picture). */
async function storeThumbnails(
  storage: MediaStorage,
  row: MemeAnalysisRow,
  thumbnails: (string | null)[],
): Promise<(string | null)[]> {
  const keys: (string | null)[] = [];
  for (const [index, file] of thumbnails.entries()) {
    if (!file) {
      keys.push(null);
      continue;
    }
    keys.push(thumbnailKey(row, index));
    await putLocalFile(storage, thumbnailKey(row, index), file, { contentType: 'image/jpeg' });
  }
  return keys;
}

/** 'memes.analyse': download (links), analysis and thumbnails; hands over to the compile job. */
export async function analyseStage(deps: AnalyseStageDeps, run: StageRun): Promise<void> {
  const { row, lease, workDir } = run;
  const analysis = await run.leased(async (signal, onProgress) => {
    if (row.source_type === 'youtube') {
      const downloadedPath = await download(deps, run, signal, onProgress);
      return analyseFile(deps, row, downloadedPath, workDir, signal, onProgress);
    }
    const source = await sourceMediaOf(deps.media, row);
    await deps.repository.setTitle(row.id, lease.owner, source.original_name);
    return withSourceFile(deps, row, (inputPath) =>
      analyseFile(deps, row, inputPath, workDir, signal, onProgress),
    );
  });

  const keys = await storeThumbnails(deps.storage, row, analysis.thumbnails);
  const handedOver = await deps.repository.analysed(row.id, lease.owner, {
    durationSeconds: analysis.result.durationSeconds,
    hasAudio: analysis.result.hasAudio,
    shorterThanTarget: analysis.result.shorterThanTarget,
    extracts: storedExtracts(analysis.result.extracts, keys),
  });
  if (!handedOver) throw new StageStoppedError('cancelled after the analysis');
  await deps.enqueueCompilation(row.id);
}
