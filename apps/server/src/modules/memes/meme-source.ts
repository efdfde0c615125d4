import type { MediaStorage } from '../../storage/media-storage.ts';
import type { MediaRow } from '../media/repository.ts';
import type { MediaService } from '../media/service.ts';
import { SourceMissingError } from './meme-state.ts';
import type { MemeAnalysisRow } from './repository.ts';

/** The user's uploaded source of an analysis, or SourceMissingError. */
export async function sourceMediaOf(
  media: Pick<MediaService, 'findMany'>,
  row: MemeAnalysisRow,
): Promise<MediaRow> {
  const [source] = row.source_media_id
    ? await media.findMany(row.user_id, [row.source_media_id])
    : [];
  if (!source) throw new SourceMissingError('the uploaded video was deleted');
  return source;
}

/** Runs `fn` with the source video on local disk (stored download or uploaded media). */
export async function withSourceFile<TResult>(
  { media, storage }: { media: MediaService; storage: MediaStorage },
  row: MemeAnalysisRow,
  fn: (localPath: string) => Promise<TResult>,
): Promise<TResult> {
  if (row.source_type === 'youtube') {
    if (!row.source_key) throw new SourceMissingError('the download was not stored');
    return storage.withLocalFile(row.source_key, fn);
  }
  return media.withLocalFile(await sourceMediaOf(media, row), fn);
}
