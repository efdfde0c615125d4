// The media's transfer to the upload target the start's answer gave: chunk after chunk, the
// progress in the row, resumed after a crash from what the platform says it holds.
import { failedOnPlatform, fail, later, react } from './outcomes.ts';
import type { AccountPublishRow, AdvanceOutcome, PublisherContext } from './publisher-context.ts';
import { pollDelayMs, resumeChunkIndex } from './publish-state.ts';

/** Where the upload resumes: the platform may hold more than the row says (a crash between its answer and our write). */
async function resumeOffset(
  ctx: PublisherContext,
  post: AccountPublishRow,
  owner: string,
  upload: { attemptId: string; size: number },
): Promise<number | AdvanceOutcome> {
  const status = await ctx.tokens.withAccessToken(post.account_id, (token) =>
    ctx.driver.fetchStatus(token, upload.attemptId),
  );
  if (status.state === 'failed') return failedOnPlatform(ctx, post, owner, status);
  if (status.state !== 'receiving') return upload.size;
  return status.receivedBytes ?? post.uploaded_bytes;
}

/** Sends the post's media from where its row (or, `resumed`, the platform) says it stands. */
export async function upload(
  ctx: PublisherContext,
  post: AccountPublishRow,
  owner: string,
  resumed: boolean,
  signal: AbortSignal,
): Promise<AdvanceOutcome> {
  const {
    publish_id: attemptId,
    upload_url: uploadUrl,
    video_size: size,
    chunk_size: chunkSize,
    total_chunk_count: count,
  } = post;
  if (
    attemptId === null ||
    uploadUrl === null ||
    size === null ||
    chunkSize === null ||
    count === null
  ) {
    return fail(ctx, post, owner, 'upload_state_missing');
  }
  const offset = resumed
    ? await resumeOffset(ctx, post, owner, { attemptId, size })
    : post.uploaded_bytes;
  if (typeof offset !== 'number') return offset;
  const chunks = ctx.driver.chunks(size, chunkSize, count);
  const start = resumeChunkIndex(chunks, offset);
  if (start < 0) return fail(ctx, post, owner, 'upload_offset_mismatch');
  if (start < chunks.length && (post.upload_url_expires_at?.getTime() ?? 0) < Date.now()) {
    return fail(ctx, post, owner, 'upload_url_expired');
  }
  const last = chunks.at(-1);
  for (const chunk of chunks.slice(start)) {
    const body = await ctx.storage.createReadStream(post.storage_key, {
      start: chunk.first,
      end: chunk.last,
    });
    try {
      await ctx.driver.sendChunk(uploadUrl, {
        body,
        first: chunk.first,
        last: chunk.last,
        total: size,
        contentType: post.content_type,
        signal,
      });
    } catch (error) {
      body.destroy();
      if (signal.aborted) return 'lease_lost';
      return react(ctx, post, owner, error, 'upload');
    }
    // The last chunk's progress is written with the first status check's wake-up, below.
    if (
      chunk !== last &&
      !(await ctx.repository.update(post.id, owner, { uploaded_bytes: chunk.last + 1 }))
    ) {
      return 'lease_lost';
    }
  }
  return (await later(ctx, post, owner, pollDelayMs(0), { uploaded_bytes: size, poll_count: 0 }))
    ? 'waiting'
    : 'lease_lost';
}
