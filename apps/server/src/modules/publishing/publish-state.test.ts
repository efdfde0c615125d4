import { publishFailReasons } from '@cadence/shared/publish-fail-reasons';
import { chunkRanges } from '@cadence/shared/tiktok-chunks';
import { describe, expect, it } from 'vitest';
import { retryDelayMs } from '../../platforms/backoff.ts';
import type { PublishPhase } from '../../platforms/driver.ts';
import { StorageError } from '../../storage/media-storage.ts';
import { TikTokApiError } from '../../tiktok/tiktok-error.ts';
import { failReasonFromTikTok, reactToTikTokError } from '../../tiktok/tiktok-publish-errors.ts';
import { AccountDeletedError, AccountNeedsReconnectError } from '../accounts/token-service.ts';
import {
  INIT_OUTCOME_UNKNOWN,
  nextStep,
  pollDelayMs,
  postIdCheckDelayMs,
  reactToError as reactToPostError,
  resumeChunkIndex,
  sandboxFirstPostIdCheckMs,
} from './publish-state.ts';

/** The core's reaction for a post published through the TikTok driver. */
const reactToError = (error: unknown, phase: PublishPhase, attempt: number) =>
  reactToPostError(error, phase, attempt, reactToTikTokError);

const apiError = (code: string, httpStatus: number | null, cause?: unknown) =>
  new TikTokApiError({ operation: 'video_init', code, httpStatus, cause });

describe('nextStep', () => {
  const fresh = { publish_id: null, init_started_at: null, uploaded_bytes: 0, video_size: null };

  it('inits a fresh post, never re-inits one whose init was sent without an answer', () => {
    expect(nextStep(fresh)).toBe('init');
    expect(nextStep({ ...fresh, init_started_at: new Date() })).toBe(INIT_OUTCOME_UNKNOWN);
  });

  it('resumes the upload until every byte is in, then polls', () => {
    const initialised = {
      ...fresh,
      init_started_at: new Date(),
      publish_id: 'p1',
      video_size: 100,
    };
    expect(nextStep(initialised)).toBe('upload');
    expect(nextStep({ ...initialised, uploaded_bytes: 99 })).toBe('upload');
    expect(nextStep({ ...initialised, uploaded_bytes: 100 })).toBe('poll');
  });
});

describe('reactToError', () => {
  it('never retries an init whose request may have reached TikTok', () => {
    expect(reactToError(apiError('timeout', null), 'init', 1)).toEqual({
      action: 'outcome_unknown',
    });
    const reset = apiError(
      'network_error',
      null,
      new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } }),
    );
    expect(reactToError(reset, 'init', 1)).toEqual({ action: 'outcome_unknown' });
  });

  it('retries an init that provably never left (connection refused)', () => {
    const refused = apiError(
      'network_error',
      null,
      new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }),
    );
    expect(reactToError(refused, 'init', 1)).toMatchObject({ action: 'retry' });
  });

  it('retries 5xx and 429 answers, failing at once on permanent and cannot-post-now codes', () => {
    expect(reactToError(apiError('internal_error', 503), 'init', 2)).toEqual({
      action: 'retry',
      reason: 'internal_error',
      delayMs: 10_000,
    });
    expect(reactToError(apiError('rate_limit_exceeded', 429), 'init', 1)).toMatchObject({
      action: 'retry',
      delayMs: 30_000,
    });
    expect(reactToError(apiError('rate_limit_exceeded', 429), 'poll', 1)).toMatchObject({
      action: 'retry',
      delayMs: 10_000,
    });
    expect(reactToError(apiError('privacy_level_option_mismatch', 403), 'init', 1)).toEqual({
      action: 'fail',
      reason: 'privacy_level_option_mismatch',
    });
    expect(reactToError(apiError('spam_risk_user_banned_from_posting', 200), 'prepare', 1)).toEqual(
      { action: 'fail', reason: 'spam_risk_user_banned_from_posting' },
    );
  });

  it("postpones a post TikTok refuses for today's cap, before anything was created", () => {
    for (const phase of ['prepare', 'init'] as const) {
      expect(reactToError(apiError('spam_risk_too_many_posts', 403), phase, 1)).toEqual({
        action: 'postpone',
        reason: 'spam_risk_too_many_posts',
      });
    }
    // During an upload or a status check the post exists at TikTok: never postponed (re-posted).
    expect(reactToError(apiError('spam_risk_too_many_posts', 403), 'upload', 1).action).not.toBe(
      'postpone',
    );
  });

  it('fails an upload whose URL expired, and resyncs after a range mismatch', () => {
    expect(reactToError(apiError('upload_http_403', 403), 'upload', 1)).toEqual({
      action: 'fail',
      reason: 'upload_url_expired',
    });
    expect(reactToError(apiError('upload_http_416', 416), 'upload', 1)).toMatchObject({
      action: 'retry',
    });
    // A timeout while uploading is safe to retry: the chunk offset is asked again.
    expect(reactToError(apiError('timeout', null), 'upload', 1)).toMatchObject({ action: 'retry' });
  });

  it('names our own failures as ours, not as TikTok\'s internal error (regression: both were "internal")', () => {
    expect(reactToError(new Error('EIO: i/o error, read'), 'upload', 1)).toEqual({
      action: 'retry',
      reason: 'publisher_error',
      delayMs: 5_000,
    });
    // A video missing from storage will not come back: fail at once, saying so.
    expect(reactToError(new StorageError('not_found', 'no object'), 'upload', 1)).toEqual({
      action: 'fail',
      reason: 'media_missing',
    });
  });

  it('fails with a reason the web knows even for codes TikTok does not document', () => {
    expect(reactToError(apiError('brand_new_code', 400), 'init', 1)).toEqual({
      action: 'fail',
      reason: 'tiktok_error',
    });
    expect(reactToError(apiError('upload_http_413', 413), 'upload', 1)).toEqual({
      action: 'fail',
      reason: 'upload_rejected',
    });
  });

  it('asks for a reconnect when the account has no usable token', () => {
    expect(reactToError(new AccountNeedsReconnectError('a1'), 'prepare', 1)).toEqual({
      action: 'fail',
      reason: 'account_reconnect_needed',
    });
  });

  it('fails with account_deleted when the account was deleted meanwhile', () => {
    for (const phase of ['prepare', 'init', 'upload', 'poll'] as const) {
      expect(reactToError(new AccountDeletedError('a1'), phase, 1)).toEqual({
        action: 'fail',
        reason: 'account_deleted',
      });
    }
  });
});

describe('failReasonFromTikTok', () => {
  it('keeps every documented code, and turns the rest into reasons of the shared list', () => {
    for (const reason of publishFailReasons) expect(failReasonFromTikTok(reason)).toBe(reason);
    expect(failReasonFromTikTok('spam_risk_something_new')).toBe('spam_risk');
    expect(failReasonFromTikTok('upload_http_403')).toBe('upload_url_expired');
    expect(failReasonFromTikTok('upload_http_404')).toBe('upload_not_found');
    expect(failReasonFromTikTok('upload_http_416')).toBe('upload_offset_mismatch');
    expect(failReasonFromTikTok('upload_http_400')).toBe('upload_rejected');
    expect(failReasonFromTikTok('never_heard_of_it')).toBe('tiktok_error');
  });
});

describe('delays', () => {
  it('polls at 1, 2, 4 … seconds, never more often than TikTok allows nor slower than 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 20].map(pollDelayMs)).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000,
    ]);
    expect([1, 2, 3, 10].map(retryDelayMs)).toEqual([5_000, 10_000, 20_000, 300_000]);
  });
});

describe('public id checks', () => {
  it('asks TikTok a minute after publishing, then 2, 4 … minutes later, at most hourly', () => {
    const delays = [0, 1, 2, 5, 6, 7, 20].map((checks) => postIdCheckDelayMs(checks) / 60_000);
    expect(delays).toEqual([1, 2, 4, 32, 60, 60, 60]);
  });

  it("asks Cadence's own sandbox a second after its moderation delay, when that is under a minute", () => {
    // TIKTOK_SANDBOX_POST_ID_DELAY_MS=3000 (the browser suites): 4 s, then 8 s, 16 s …
    const first = sandboxFirstPostIdCheckMs(3_000);
    expect([0, 1, 2].map((checks) => postIdCheckDelayMs(checks, first))).toEqual([
      4_000, 8_000, 16_000,
    ]);
    // The sandbox's default (5 minutes) and anything from 59 s up keep TikTok's schedule.
    expect(sandboxFirstPostIdCheckMs(300_000)).toBe(60_000);
    expect(sandboxFirstPostIdCheckMs(59_000)).toBe(60_000);
  });
});

describe('resumeChunkIndex', () => {
  const chunks = chunkRanges(30, 10, 3);
  it('continues at the chunk TikTok expects next', () => {
    expect(resumeChunkIndex(chunks, 0)).toBe(0);
    expect(resumeChunkIndex(chunks, 10)).toBe(1);
    expect(resumeChunkIndex(chunks, 20)).toBe(2);
    expect(resumeChunkIndex(chunks, 30)).toBe(3);
  });
  it('refuses an offset inside a chunk', () => {
    expect(resumeChunkIndex(chunks, 15)).toBe(-1);
  });
});
