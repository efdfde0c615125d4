import { createPkcePair, type PkcePair } from './pkce.ts';
import { createTikTokHttp, type TikTokClientOptions } from './tiktok-http.ts';
import { createTikTokOAuth } from './tiktok-oauth.ts';
import {
  createTikTokPublishApi,
  uploadChunk,
  type UploadChunkInput,
} from './tiktok-publish-api.ts';
import { createTikTokUserData } from './tiktok-user-data.ts';

/**
 * The typed TikTok v2 client, one module per API family: Login Kit (tiktok-oauth.ts), Content
 * Posting (tiktok-publish-api.ts), user info and the Display API (tiktok-user-data.ts), over one
 * HTTP layer (tiktok-http.ts).
 */
export type TikTokClient = {
  /** Same as the standalone createPkcePair(); here for convenience. */
  createPkcePair(): PkcePair;
  uploadChunk(uploadUrl: string, input: UploadChunkInput): Promise<'partial' | 'complete'>;
} & ReturnType<typeof createTikTokOAuth> &
  ReturnType<typeof createTikTokPublishApi> &
  ReturnType<typeof createTikTokUserData>;

export function createTikTokClient(options: TikTokClientOptions): TikTokClient {
  const http = createTikTokHttp(options);
  return {
    createPkcePair,
    ...createTikTokOAuth(http, options),
    ...createTikTokPublishApi(http),
    ...createTikTokUserData(http),
    uploadChunk: (uploadUrl, input) => uploadChunk(http, uploadUrl, input),
  };
}
