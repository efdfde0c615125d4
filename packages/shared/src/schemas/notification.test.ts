import { describe, expect, it } from 'vitest';
import {
  NOTIFICATION_CAPTION_LENGTH,
  notificationCaption,
  notificationSentenceKey,
} from './notification.ts';

describe('the caption a notification quotes', () => {
  it('is the caption on one line, cut with an ellipsis past the limit, and none when blank', () => {
    expect(notificationCaption('  Ma vidéo\n#paris   #été ')).toBe('Ma vidéo #paris #été');
    expect(notificationCaption(' \n\t ')).toBeUndefined();
    const long = `${'é'.repeat(NOTIFICATION_CAPTION_LENGTH - 3)}👩‍👩‍👧 et la suite`;
    const cut = notificationCaption(long) ?? '';
    // The family emoji (five code points) stays whole.
    expect(cut).toBe(`${'é'.repeat(NOTIFICATION_CAPTION_LENGTH - 3)}👩‍👩‍👧…`);
    expect(notificationCaption('x'.repeat(NOTIFICATION_CAPTION_LENGTH))).toHaveLength(
      NOTIFICATION_CAPTION_LENGTH,
    );
  });

  it('picks the sentence that names the post when the caption is known', () => {
    expect(notificationSentenceKey('post_failed', { caption: 'Clip' })).toBe(
      'settings.notifications.events.post_failed_caption',
    );
    expect(notificationSentenceKey('post_failed', {})).toBe(
      'settings.notifications.events.post_failed',
    );
    // Other types have no post to name.
    expect(notificationSentenceKey('story_ready', { caption: 'Clip' })).toBe(
      'settings.notifications.events.story_ready',
    );
  });
});
