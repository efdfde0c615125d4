// PULL_FROM_URL (TIKTOK_PULL_FROM_URL_PREFIX): TikTok downloads the video from a signed,
// expiring link to Cadence instead of the worker uploading chunks. The sandbox downloads it from
// loopback, reports PROCESSING_DOWNLOAD meanwhile, and refuses an unverified prefix.
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { pollUntil } from '../../tiktok/sandbox-test-kit.ts';
import { PULL_MEDIA_PATH, createPullUrls } from './pull-urls.ts';
import { usePublishingTestApp } from './test-kit.ts';

const kit = usePublishingTestApp((url) => ({
  TIKTOK_PULL_FROM_URL_PREFIX: `${url}${PULL_MEDIA_PATH}`,
}));

function pullUrls() {
  const urls = createPullUrls(kit.t.config);
  if (urls === null) throw new Error('PULL_FROM_URL expected');
  return urls;
}

describe('PULL_FROM_URL', () => {
  it('lets TikTok download the video from a signed link, byte for byte, with no chunk uploaded', async () => {
    const { post, sha256 } = await kit.publishNow('Pulled #url');
    const [ledgerPost] = await pollUntil(
      async () => kit.ledgerPostsTitled('Pulled #url'),
      (posts) => posts.length > 0,
    );
    expect(ledgerPost?.chunk_size).toBe(0);
    const done = await kit.waitForStatus(post.id, ['completed', 'failed']);
    expect(done.status, done.failReason ?? '').toBe('completed');
    const [pulled] = kit.ledgerPostsTitled('Pulled #url');
    expect(pulled).toMatchObject({ sha256, status: 'PUBLISH_COMPLETE', received_chunks: 0 });
    const stored = kit.sandbox().posts.find(pulled?.publish_id ?? '');
    expect(stored?.videoUrl).toMatch(
      new RegExp(`^${kit.t.url}/api/pull-media/${post.id}\\?expires=\\d+&signature=[\\w-]+$`),
    );
  });

  it('serves only that post’s video, only while the link is valid and untampered', async () => {
    const { post, sha256 } = await kit.publishNow('Link rules');
    const link = pullUrls().urlFor(post.id);
    const ok = await fetch(link);
    expect(ok.status).toBe(200);
    expect(
      createHash('sha256')
        .update(Buffer.from(await ok.arrayBuffer()))
        .digest('hex'),
    ).toBe(sha256);
    const expired = await fetch(pullUrls().urlFor(post.id, Date.now() - 3_600_000, 1_000));
    expect(expired.status).toBe(403);
    const tampered = new URL(link);
    tampered.searchParams.set('expires', String(Number(tampered.searchParams.get('expires')) + 60));
    expect((await fetch(tampered)).status).toBe(403);
    const otherPost = link.replace(post.id, '00000000-0000-4000-8000-000000000000');
    expect((await fetch(otherPost)).status).toBe(403);
    expect(
      (await fetch(`${kit.t.url}${PULL_MEDIA_PATH}not-a-uuid?expires=1&signature=x`)).status,
    ).toBe(400);
    // Once published, the link has nothing left to serve.
    await kit.waitForStatus(post.id, ['completed']);
    expect((await fetch(link)).status).toBe(404);
  });

  it('fails a pull from an expired link (video_pull_failed) and from an unverified prefix', async () => {
    const { post } = await kit.publishNow('Later pull', {
      publishType: 'scheduled',
      date: '2099-01-01',
      time: '09:00',
    });
    const accountId = post.accountId ?? '';
    const { tiktok, tokens } = kit.t.context;
    const postInfo = { title: 'Expired link', privacyLevel: 'SELF_ONLY' } as const;
    const expiredLink = pullUrls().urlFor(post.id, Date.now() - 7_200_000, 1_000);
    const { publishId } = await tokens.withAccessToken(accountId, (token) =>
      tiktok.initDirectPostFromUrl(token, { videoUrl: expiredLink, postInfo }),
    );
    const failed = await pollUntil(
      () => tokens.withAccessToken(accountId, (token) => tiktok.fetchPostStatus(token, publishId)),
      (status) => status.status !== 'PROCESSING_DOWNLOAD',
    );
    expect(failed).toMatchObject({ status: 'FAILED', failReason: 'video_pull_failed' });

    // The operator's prefix is not (or no longer) verified with TikTok: the post says so.
    const client = kit.sandbox().oauth.findClient(kit.t.config.tiktok.clientKey);
    if (!client) throw new Error('no sandbox client');
    const verified = client.verifiedUrlPrefixes;
    client.verifiedUrlPrefixes = ['https://elsewhere.example/'];
    try {
      const { post: refused } = await kit.publishNow('Unverified prefix');
      const done = await kit.waitForStatus(refused.id, ['completed', 'failed']);
      expect(done).toMatchObject({ status: 'failed', failReason: 'url_ownership_unverified' });
    } finally {
      client.verifiedUrlPrefixes = verified;
    }
  });
});
