import { describe, expect, it } from 'vitest';
import { creatorInfoDataSchema, userSchema, videoSchema } from './tiktok-schemas.ts';

// Links from TikTok are stored, then shown in <img src> and <a href>: only http(s) gets through.
describe("TikTok's links", () => {
  it('keeps http(s) links and drops any other scheme, without refusing the answer', () => {
    const video = videoSchema.parse({
      id: '7301',
      cover_image_url: 'https://p16-sign.tiktokcdn.com/cover.jpeg',
      share_url: 'javascript:alert(document.cookie)',
      title: 'kept',
    });
    expect(video).toMatchObject({
      id: '7301',
      cover_image_url: 'https://p16-sign.tiktokcdn.com/cover.jpeg',
      title: 'kept',
    });
    expect(video.share_url).toBeUndefined();

    const user = userSchema.parse({
      avatar_url: 'data:image/svg+xml,<svg onload=alert(1)>',
      avatar_url_100: 'http://127.0.0.1:4000/sandbox/tiktok/avatar/a.png',
      profile_deep_link: 'not a url',
      username: 'camille',
    });
    expect(user).toMatchObject({
      avatar_url_100: 'http://127.0.0.1:4000/sandbox/tiktok/avatar/a.png',
      username: 'camille',
    });
    expect(user.avatar_url).toBeUndefined();
    expect(user.profile_deep_link).toBeUndefined();
  });

  it("drops a creator avatar that is not an http(s) link, keeping the creator's info", () => {
    const creator = creatorInfoDataSchema.parse({
      creator_avatar_url: 'javascript:alert(1)',
      creator_username: 'camille',
      creator_nickname: 'Camille',
      privacy_level_options: ['SELF_ONLY'],
      comment_disabled: false,
      duet_disabled: false,
      stitch_disabled: false,
    });
    expect(creator.creator_avatar_url).toBeUndefined();
    expect(creator.creator_username).toBe('camille');
  });
});
