import type { CreateMemeAnalysisInput, MemeLayout } from '@cadence/shared/schemas/meme';
import { isYouTubeUrl } from '@cadence/shared/youtube-url';

export type SourceMode = 'youtube' | 'file';

/** What the meme form holds; the uploaded file's media id comes from the upload hook. */
export interface MemeFormInput {
  mode: SourceMode;
  url: string;
  /** The finished upload's media, null while none is ready. */
  mediaId: string | null;
  layout: MemeLayout;
}

/** 'Détecter les memes' waits for a link typed or an upload finished. */
export function hasMemeSource({ mode, url, mediaId }: MemeFormInput): boolean {
  return mode === 'youtube' ? url.trim() !== '' : mediaId !== null;
}

/**
 * The POST /api/memes body the form stands for, checked by the rule the API enforces (YouTube
 * hosts and a video id only): 'invalid-url' for a link the API would refuse, null with no source.
 */
export function memeAnalysisRequest(
  input: MemeFormInput,
): CreateMemeAnalysisInput | 'invalid-url' | null {
  if (!hasMemeSource(input)) return null;
  if (input.mode === 'youtube') {
    const url = input.url.trim();
    return isYouTubeUrl(url)
      ? { source: { type: 'youtube', url }, layout: input.layout }
      : 'invalid-url';
  }
  return input.mediaId === null
    ? null
    : { source: { type: 'media', mediaId: input.mediaId }, layout: input.layout };
}
