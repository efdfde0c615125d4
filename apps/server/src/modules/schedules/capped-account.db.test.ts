import type { CreatorInfo } from '@cadence/shared/schemas/account';
import {
  addDaysToDate,
  localDateOf,
  localTimeOf,
  zonedDateTimeToUtc,
} from '@cadence/shared/schedule/planner';
import type { Post } from '@cadence/shared/schemas/schedule';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  addVideo,
  api,
  connectTikTok,
  createSchedule,
  fieldsOf,
  scheduleBody,
  signUp,
  useScheduleTestApp,
  type TestUser,
} from './test-kit.ts';

// Issue 47: with TikTok answering creator_info 'cannot post now' (today's cap), no option could be
// chosen, so no post could be scheduled for any day. TikTok's last successful answer now stands
// for posts due on a later day; a post due today and a suspended account are still refused.
const kit = useScheduleTestApp('cadence-capped-account-');
const { sandbox } = kit;
const username = 'capped_creator';
// A zone where it is between 02:00 and 20:00 now, so 'later today' and '23:00 today' exist.
const zone =
  ['Europe/Paris', 'America/New_York', 'Asia/Tokyo', 'Pacific/Honolulu', 'Asia/Kolkata'].find(
    (candidate) => {
      const hour = Number(localTimeOf(new Date(), candidate).slice(0, 2));
      return hour >= 2 && hour < 20;
    },
  ) ?? 'UTC';
let alice: TestUser;
let account: string;
let video: string;

const today = () => localDateOf(new Date(), zone);
const tomorrow = () => addDaysToDate(today(), 1);
const scheduledOn = (date: string, time: string, overrides = {}) =>
  scheduleBody(account, [video], {
    publishType: 'scheduled',
    timeZone: zone,
    date,
    time,
    // TikTok's options for a private account, as its last successful answer gave them.
    privacyLevel: 'FOLLOWER_OF_CREATOR',
    allowComment: true,
    allowStitch: true,
    ...overrides,
  });
const flags = (
  cannotPost: 'spam_risk_too_many_posts' | 'spam_risk_user_banned_from_posting' | null,
) => sandbox().control.setUserFlags({ username }, { cannotPost });
const creatorInfo = async () =>
  (
    await api(kit.t, alice.cookie, 'GET', `/api/accounts/${account}/creator-info`)
  ).json<CreatorInfo>();

beforeAll(async () => {
  alice = await signUp(kit.t, 'alice.capped@example.com');
  await api(kit.t, alice.cookie, 'PATCH', '/api/me', { timeZone: zone });
  account = await connectTikTok(kit.t, alice, username);
  video = (await addVideo(kit.t, alice, kit.dir, 'capped', { durationSeconds: 3 })).mediaId;
  sandbox().control.setUserFlags(
    { username },
    { privateAccount: true, stitchDisabled: true, maxVideoPostDurationSec: 180 },
  );
}, 60_000);

afterEach(() => flags(null));

describe('a capped account (creator_info: spam_risk_too_many_posts)', () => {
  it("answers with TikTok's last successful options and when TikTok gave them", async () => {
    const before = Date.now();
    expect(await creatorInfo()).toMatchObject({ cannotPostReason: null, lastKnown: null });
    flags('spam_risk_too_many_posts');
    const info = await creatorInfo();
    expect(info).toMatchObject({
      cannotPostReason: 'spam_risk_too_many_posts',
      privacyLevelOptions: [],
      lastKnown: {
        privacyLevelOptions: ['FOLLOWER_OF_CREATOR', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'],
        commentDisabled: false,
        duetDisabled: false,
        stitchDisabled: true,
        maxVideoPostDurationSec: 180,
      },
    });
    const fetchedAt = Date.parse(info.lastKnown?.fetchedAt ?? '');
    expect(fetchedAt).toBeGreaterThanOrEqual(before - 1_000);
    expect(fetchedAt).toBeLessThanOrEqual(Date.now());
  });

  it('accepts a post due tomorrow, checked against those options', async () => {
    await creatorInfo();
    flags('spam_risk_too_many_posts');
    // Not one of the private account's options: refused as TikTok would refuse it.
    const publicPost = await api(
      kit.t,
      alice.cookie,
      'POST',
      '/api/schedules',
      scheduledOn(tomorrow(), '10:00', { privacyLevel: 'PUBLIC_TO_EVERYONE' }),
    );
    expect(publicPost.statusCode).toBe(400);
    expect(fieldsOf(publicPost)).toEqual({ privacyLevel: 'errors.selectPrivacy' });

    const made = await createSchedule(kit.t, alice, scheduledOn(tomorrow(), '10:00'));
    // Stitch was disabled in TikTok's last answer: dropped, as with a live answer.
    expect(made.posts[0]).toMatchObject({
      status: 'pending',
      privacyLevel: 'FOLLOWER_OF_CREATOR',
      allowComment: true,
      allowStitch: false,
    });

    // Editing that post's privacy is checked against the same options.
    const postId = made.posts[0]?.id ?? '';
    const edited = await api(kit.t, alice.cookie, 'PATCH', `/api/posts/${postId}`, {
      privacyLevel: 'SELF_ONLY',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<Post>().privacyLevel).toBe('SELF_ONLY');
    const editedPublic = await api(kit.t, alice.cookie, 'PATCH', `/api/posts/${postId}`, {
      privacyLevel: 'PUBLIC_TO_EVERYONE',
    });
    expect(fieldsOf(editedPublic)).toEqual({ privacyLevel: 'errors.selectPrivacy' });
  });

  it('refuses a post due now or later today', async () => {
    await creatorInfo();
    flags('spam_risk_too_many_posts');
    const now = await api(kit.t, alice.cookie, 'POST', '/api/schedules', {
      ...scheduledOn(today(), '00:00'),
      publishType: 'immediate',
    });
    expect(now.statusCode).toBe(409);
    expect(fieldsOf(now)).toEqual({ accountId: 'schedules.errors.cannotPostNow' });
    const tonight = await api(
      kit.t,
      alice.cookie,
      'POST',
      '/api/schedules',
      scheduledOn(today(), '23:00'),
    );
    expect(tonight.statusCode).toBe(409);
    expect(fieldsOf(tonight)).toEqual({ accountId: 'schedules.errors.cannotPostToday' });
  });

  it("'Add to queue' takes tomorrow's first free slot", async () => {
    await creatorInfo();
    const slots = [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, time: '23:00' }));
    const set = await api(kit.t, alice.cookie, 'PUT', `/api/accounts/${account}/slots`, { slots });
    expect(set.statusCode, set.body).toBe(200);
    flags('spam_risk_too_many_posts');
    const { publishType: _immediate, ...content } = scheduleBody(account, [video], {
      timeZone: zone,
      privacyLevel: 'SELF_ONLY',
    });
    const queued = await api(kit.t, alice.cookie, 'POST', '/api/schedules/queue', content);
    expect(queued.statusCode, queued.body).toBe(201);
    expect(queued.json<{ posts: Post[] }>().posts[0]?.dueAt).toBe(
      zonedDateTimeToUtc(tomorrow(), '23:00', zone).toISOString(),
    );
    await api(kit.t, alice.cookie, 'PUT', `/api/accounts/${account}/slots`, { slots: [] });
  });
});

describe('a suspended account (creator_info: spam_risk_user_banned_from_posting)', () => {
  it('offers no earlier options and refuses a post for any day', async () => {
    await creatorInfo();
    flags('spam_risk_user_banned_from_posting');
    expect(await creatorInfo()).toMatchObject({
      cannotPostReason: 'spam_risk_user_banned_from_posting',
      lastKnown: null,
    });
    const later = await api(
      kit.t,
      alice.cookie,
      'POST',
      '/api/schedules',
      scheduledOn(addDaysToDate(today(), 7), '10:00'),
    );
    expect(later.statusCode).toBe(409);
    expect(fieldsOf(later)).toEqual({ accountId: 'schedules.errors.postingSuspended' });
  });
});
