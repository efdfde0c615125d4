import { describe, expect, it } from 'vitest';
import { StorageError } from '../../storage/media-storage.ts';
import { QuotaExceededError } from '../media/service.ts';
import type { StoredExtract } from './db-types.ts';
import { VideoFetchError } from './engine/youtube.ts';
import {
  compilationName,
  compilationPlan,
  downloadKey,
  failReasonFor,
  recoveryOf,
  SourceMissingError,
  stageStatuses,
  storedExtracts,
} from './meme-state.ts';

const row = { id: 'a1', user_id: 'u1' };

describe('failReasonFor', () => {
  it('names what the user can act on and keeps the rest generic', () => {
    expect(failReasonFor(new VideoFetchError('network', 'down'))).toBe('memes.failures.network');
    expect(failReasonFor(new SourceMissingError('gone'))).toBe('memes.failures.source_missing');
    expect(failReasonFor(new StorageError('not_found', 'gone'))).toBe(
      'memes.failures.source_missing',
    );
    expect(failReasonFor(new QuotaExceededError(10, 10))).toBe('memes.failures.quota_full');
    expect(failReasonFor(new StorageError('invalid_range', 'disk'))).toBe('memes.failures.failed');
    expect(failReasonFor(new Error('/tmp/secret path'))).toBe('memes.failures.failed');
  });
});

describe('file names and keys', () => {
  it("names a compilation after its source, without the extension or a path's characters", () => {
    expect(compilationName('Chats drôles.mp4')).toBe('memes-Chats drôles.mp4');
    expect(compilationName('a/b:c*?.mov')).toBe('memes-a b c.mp4');
    expect(compilationName(null)).toBe('memes-video.mp4');
    expect(compilationName('   .mp4')).toBe('memes-video.mp4');
  });

  it("stores a download under the user's folder with its container's type", () => {
    expect(downloadKey(row, '/tmp/x/video.webm')).toEqual({
      key: 'users/u1/memes/a1/source.webm',
      contentType: 'video/webm',
    });
    expect(downloadKey(row, '/tmp/x/video.mkv')).toEqual({
      key: 'users/u1/memes/a1/source.mp4',
      contentType: 'video/mp4',
    });
  });
});

describe('extracts', () => {
  it('stores every extract selected, scores kept within 0…1, thumbnails where grabbed', () => {
    const stored = storedExtracts(
      [
        { startSeconds: 0, endSeconds: 5, score: 1.2, peakSeconds: 2 },
        { startSeconds: 9, endSeconds: 12, score: -0.1, peakSeconds: 10 },
      ],
      ['users/u1/memes/a1/0.jpg', null],
    );
    expect(stored).toEqual([
      {
        index: 0,
        startSeconds: 0,
        endSeconds: 5,
        score: 1,
        peakSeconds: 2,
        selected: true,
        thumbnailKey: 'users/u1/memes/a1/0.jpg',
      },
      {
        index: 1,
        startSeconds: 9,
        endSeconds: 12,
        score: 0,
        peakSeconds: 10,
        selected: true,
        thumbnailKey: null,
      },
    ]);
  });

  it('compiles only the ticked extracts and counts their seconds', () => {
    const extract = (index: number, start: number, end: number, selected: boolean) =>
      ({
        index,
        startSeconds: start,
        endSeconds: end,
        score: 0.5,
        peakSeconds: start,
        selected,
        thumbnailKey: null,
      }) satisfies StoredExtract;
    const plan = compilationPlan([
      extract(0, 0, 10, true),
      extract(1, 20, 25, false),
      extract(2, 30, 34, true),
    ]);
    expect(plan.selected.map((e) => e.index)).toEqual([0, 2]);
    expect(plan.seconds).toBe(14);
    expect(compilationPlan(null)).toEqual({ selected: [], seconds: 0 });
  });
});

describe('stages after a stop', () => {
  it('gives up only on the rows still in the stage that failed', () => {
    expect(stageStatuses('analyse')).toEqual(['queued', 'downloading', 'analysing']);
    expect(stageStatuses('compile')).toEqual(['compiling']);
  });

  it('runs a never-started row at once and a started one once its lease can have run out', () => {
    expect(recoveryOf('queued', 60_000)).toEqual({ stage: 'analyse' });
    expect(recoveryOf('downloading', 60_000)).toEqual({ stage: 'analyse', delaySeconds: 65 });
    expect(recoveryOf('analysing', 60_000)).toEqual({ stage: 'analyse', delaySeconds: 65 });
    expect(recoveryOf('compiling', 1_500)).toEqual({ stage: 'compile', delaySeconds: 7 });
  });
});
