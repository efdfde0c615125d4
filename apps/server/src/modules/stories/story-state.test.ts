import { describe, expect, it } from 'vitest';
import { FfmpegError } from '../../media/ffmpeg.ts';
import { QuotaExceededError } from '../media/service.ts';
import { failReasonFor, recoveryDelaySeconds, storyFileName } from './story-state.ts';

describe('story render decisions', () => {
  it('tells the user why a render failed without internals', () => {
    expect(failReasonFor(new QuotaExceededError(10, 10))).toBe('stories.failures.quotaFull');
    expect(failReasonFor(new FfmpegError('exit 1', 1, 'stderr'))).toBe(
      'stories.failures.renderFailed',
    );
    expect(failReasonFor(new Error('/tmp/secret'))).toBe('stories.failures.internal');
  });

  it('names the story after the top video, without its extension', () => {
    expect(storyFileName('Ma vidéo.MOV')).toBe('story-Ma vidéo.mp4');
    expect(storyFileName('.mp4')).toBe('story-video.mp4');
  });

  it('renders a queued story at once and a half-rendered one once its lease can have run out', () => {
    expect(recoveryDelaySeconds('queued', 60_000)).toBeUndefined();
    expect(recoveryDelaySeconds('rendering', 60_000)).toBe(65);
  });
});
