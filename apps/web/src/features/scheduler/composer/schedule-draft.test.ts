import type { Account, CreatorInfo } from '@cadence/shared/schemas/account';
import type { Media } from '@cadence/shared/schemas/media';
import type { Draft } from '@cadence/shared/schemas/planning';
import { zonedDateTimeToUtc } from '@cadence/shared/schedule/planner';
import { describe, expect, it } from 'vitest';
import type { UploadItem } from '../../../lib/upload.ts';
import { buildDraftBody, buildScheduleRequest } from './form-request.ts';
import {
  draftAccountId,
  formVideos,
  initialDraft,
  scheduleDraftReducer,
  scheduleFormCheck,
  scheduleFormValues,
  usualSettingsEdit,
  type DraftAction,
  type ScheduleDraft,
} from './schedule-draft.ts';

// 08:00 in Paris: the form's days are the person's, whatever the machine's zone.
const zone = 'Europe/Paris';
const now = zonedDateTimeToUtc('2030-01-05', '08:00', zone);
const account: Account = {
  id: '0b6f3f0e-7c1a-4c61-9d0e-2f1d5a2b9c11',
  username: 'lea',
  status: 'connected',
  displayName: 'Léa',
  avatarUrl: null,
  openId: 'open-lea',
  scopes: ['video.publish'],
  canPublish: true,
  scheduledCount: 0,
  nextPostAt: null,
  settings: {
    defaultPrivacyLevel: 'SELF_ONLY',
    allowComment: true,
    allowDuet: true,
    allowStitch: false,
  },
  connectedAt: null,
  createdAt: '2030-01-01T00:00:00.000Z',
};
const other: Account = { ...account, id: '1c7f4f1f-8d2b-4d72-8e1f-3f2e6b3c0d22', username: 'max' };
const creator: CreatorInfo = {
  nickname: 'Léa',
  username: 'lea',
  avatarUrl: 'https://example.com/a.png',
  privacyLevelOptions: ['PUBLIC_TO_EVERYONE', 'SELF_ONLY'],
  commentDisabled: false,
  duetDisabled: true,
  stitchDisabled: false,
  maxVideoPostDurationSec: 60,
  cannotPostReason: null,
  lastKnown: null,
};
const media = (id: string, durationSeconds = 10): Media => ({
  id,
  kind: 'upload',
  originalName: `${id}.mp4`,
  sizeBytes: 1000,
  durationSeconds,
  width: 720,
  height: 1280,
  hasAudio: true,
  thumbnailUrl: `/thumbs/${id}.jpg`,
  fileUrl: `/media/${id}.mp4`,
  createdAt: '2030-01-01T00:00:00.000Z',
});
const upload = (key: string, patch: Partial<UploadItem> = {}): UploadItem => ({
  key,
  file: new File(['x'], `${key}.mp4`, { type: 'video/mp4' }),
  previewUrl: `blob:${key}`,
  progress: 1,
  transfer: { sentBytes: 1, totalBytes: 1, msLeft: null },
  status: 'done',
  mediaId: `m-${key}`,
  rejection: null,
  maxBytes: null,
  failed: false,
  ...patch,
});

const run = (draft: ScheduleDraft, ...actions: DraftAction[]) =>
  actions.reduce(scheduleDraftReducer, draft);

describe('schedule draft', () => {
  it('starts fresh with a ?media= video attached and no account chosen', () => {
    const draft = initialDraft('story-1', now, zone);
    expect(draft.attached).toEqual(['story-1']);
    expect(draft.accountId).toBeNull();
    expect(draft.fields).toMatchObject({
      publishType: 'immediate',
      date: '2030-01-05',
      time: '12:00',
    });
    expect(initialDraft(null, now, zone).attached).toEqual([]);
  });

  it('shows the ?account= account once it is among the schedulable ones, until the person picks another', () => {
    const draft = initialDraft(null, now, zone);
    expect(draftAccountId(draft, account.id, [])).toBe('');
    expect(draftAccountId(draft, account.id, [other, account])).toBe(account.id);
    const picked = run(draft, { type: 'selectAccount', accountId: other.id });
    // A refetched account list no longer takes the person's choice back.
    expect(draftAccountId(picked, account.id, [other, account])).toBe(other.id);
  });

  // Issue 12: TikTok's audit refuses a composer that picks privacy or interactions for the creator.
  it("never fills in the account's saved preferences until 'Use my usual settings' is clicked", () => {
    const draft = initialDraft(null, now, zone);
    expect(scheduleFormValues(draft, account.id)).toMatchObject({
      accountId: account.id,
      privacyLevel: '',
      allowComment: false,
      allowDuet: false,
      allowStitch: false,
      isAigc: false,
    });
    // The click: saved preferences, limited by TikTok's creator info.
    const patch = usualSettingsEdit(account, creator, scheduleFormValues(draft, account.id));
    expect(patch).toEqual({
      privacyLevel: 'SELF_ONLY',
      allowComment: true,
      allowDuet: false, // duets disabled by TikTok
      allowStitch: false,
    });
    expect(usualSettingsEdit(account, undefined, scheduleFormValues(draft, account.id))).toBeNull();
    const used = run(draft, { type: 'edit', patch: patch! });
    expect(scheduleFormValues(used, account.id)).toMatchObject({
      privacyLevel: 'SELF_ONLY',
      allowComment: true,
    });
    // With branded content, 'Only me' is not theirs to fill in.
    const branded = run(draft, {
      type: 'edit',
      patch: { commercialContent: { enabled: true, yourBrand: false, brandedContent: true } },
    });
    expect(
      usualSettingsEdit(account, creator, scheduleFormValues(branded, account.id))?.privacyLevel,
    ).toBe('');
    // Another account starts unchosen again; the rest of the form stays.
    const edited = run(used, { type: 'edit', patch: { consent: true } });
    const switched = run(edited, { type: 'selectAccount', accountId: other.id });
    expect(scheduleFormValues(switched, other.id)).toMatchObject({
      privacyLevel: '',
      allowComment: false,
      consent: true,
    });
  });

  it('keeps a cover frame per video, sends it with its caption, and drops it with the video', () => {
    const draft = run(
      initialDraft('story-1', now, zone),
      { type: 'cover', key: 'media-story-1', ms: 1500 },
      { type: 'edit', patch: { isAigc: true } },
    );
    const values = scheduleFormValues(draft, account.id);
    expect(values.covers).toEqual({ 'media-story-1': 1500 });
    expect(
      buildScheduleRequest(
        values,
        [
          { key: 'media-story-1', mediaId: 'story-1' },
          { key: 'u1', mediaId: 'm-u1' },
        ],
        'Europe/Paris',
      ),
    ).toMatchObject({
      isAigc: true,
      posts: [
        { mediaId: 'story-1', title: '', coverTimestampMs: 1500 },
        { mediaId: 'm-u1', title: '' },
      ],
    });
    const removed = run(draft, {
      type: 'videoRemoved',
      key: 'media-story-1',
      attachedId: 'story-1',
      remaining: 0,
    });
    expect(removed.fields.covers).toEqual({});
  });

  it('brings the spaced count down when a video is removed, never up, and drops its caption', () => {
    const draft = run(
      initialDraft('story-1', now, zone),
      {
        type: 'edit',
        patch: { interval: { ...initialDraft(null, now, zone).fields.interval, count: 3 } },
      },
      { type: 'caption', key: 'media-story-1', caption: 'Hello' },
      { type: 'caption', key: 'u1', caption: 'Other' },
      { type: 'videoRemoved', key: 'media-story-1', attachedId: 'story-1', remaining: 2 },
    );
    expect(draft.attached).toEqual([]);
    expect(draft.fields.interval.count).toBe(2);
    expect(draft.fields.captions).toEqual({ u1: 'Other' });
    const emptied = run(
      draft,
      { type: 'edit', patch: { interval: { ...draft.fields.interval, count: 0 } } },
      { type: 'videoRemoved', key: 'u1', attachedId: null, remaining: 0 },
    );
    expect(emptied.fields.interval.count).toBe(0);
  });

  it('clears the server messages on any change, and resets to a fresh form on the same account once scheduled', () => {
    const refused = run(
      initialDraft('story-1', now, zone),
      { type: 'submitted' },
      { type: 'refused', errors: { consent: 'errors.consentRequired' } },
    );
    expect(refused).toMatchObject({
      attempted: true,
      serverErrors: { consent: 'errors.consentRequired' },
    });
    expect(run(refused, { type: 'videosAdded' }).serverErrors).toEqual({});
    expect(run(refused, { type: 'edit', patch: { consent: true } }).serverErrors).toEqual({});
    const scheduled = run(
      refused,
      { type: 'edit', patch: { publishType: 'scheduled', allowComment: true } },
      {
        type: 'scheduled',
        accountId: account.id,
        now: zonedDateTimeToUtc('2030-01-06', '09:00', zone),
        timeZone: zone,
      },
    );
    expect(scheduled).toEqual({
      ...initialDraft(null, zonedDateTimeToUtc('2030-01-06', '00:00', zone), zone),
      accountId: account.id,
    });
  });
});

describe('form videos', () => {
  it('lists attached media first, then uploads, flagging the missing and the too long', () => {
    const videos = formVideos({
      attached: ['a', 'gone', 'slow'],
      attachedMedia: [
        { data: media('a', 90), isError: false },
        { data: undefined, isError: true },
        { data: undefined, isError: false },
      ],
      uploads: [upload('u1'), upload('u2', { status: 'uploading', mediaId: null, progress: 0.5 })],
      uploadedMedia: new Map([['m-u1', media('m-u1', 5)]]),
      maxDuration: 60,
    });
    expect(
      videos.map((video) => [video.key, video.status, video.tooLongFor, video.missing]),
    ).toEqual([
      ['media-a', 'done', 60, false],
      ['media-gone', 'error', null, true],
      ['media-slow', 'uploading', null, false],
      ['u1', 'done', null, false],
      ['u2', 'uploading', null, false],
    ]);
    expect(videos[0]).toMatchObject({ name: 'a.mp4', thumbnailUrl: '/thumbs/a.jpg', mediaId: 'a' });
    expect(videos[3]).toMatchObject({
      name: 'u1.mp4',
      previewUrl: 'blob:u1',
      thumbnailUrl: '/thumbs/m-u1.jpg',
      // The cover picker reads the local file, the stored one for attached media.
      coverSource: { url: 'blob:u1', durationSeconds: expect.any(Number) as number },
    });
    expect(videos[0]?.coverSource?.url).toBe('/media/a.mp4');
    expect(videos[2]?.coverSource).toBeNull();
  });

  it('waits for uploading videos without an error, and asks to remove failed or too long ones', () => {
    const values = {
      ...scheduleFormValues(initialDraft(null, now, zone), account.id),
      privacyLevel: 'SELF_ONLY' as const,
      consent: true,
    };
    const uploading = formVideos({
      attached: [],
      attachedMedia: [],
      uploads: [upload('u1', { status: 'uploading', mediaId: null })],
      uploadedMedia: new Map(),
      maxDuration: 60,
    });
    const waiting = scheduleFormCheck(
      values,
      uploading,
      { attempted: true, serverErrors: {}, savedDraftId: null },
      'Europe/Paris',
    );
    expect(waiting.clientErrors.videos).toBeUndefined();
    expect(waiting.request).toBeNull();

    const tooLong = formVideos({
      attached: ['a'],
      attachedMedia: [{ data: media('a', 90), isError: false }],
      uploads: [],
      uploadedMedia: new Map(),
      maxDuration: 60,
    });
    const check = scheduleFormCheck(
      values,
      tooLong,
      { attempted: false, serverErrors: {}, savedDraftId: null },
      'Europe/Paris',
    );
    expect(check.clientErrors.videos).toBe('scheduler.form.videos.removeTooLong');
    expect(check.errors).toEqual({}); // shown only once a submit was tried
    expect(check.request).toBeNull();

    const ready = formVideos({
      attached: ['a'],
      attachedMedia: [{ data: media('a', 10), isError: false }],
      uploads: [],
      uploadedMedia: new Map(),
      maxDuration: 60,
    });
    const ok = scheduleFormCheck(
      values,
      ready,
      { attempted: true, serverErrors: {}, savedDraftId: null },
      'Europe/Paris',
    );
    expect(ok.request?.body).toMatchObject({
      accountId: account.id,
      mediaIds: ['a'],
      privacyLevel: 'SELF_ONLY',
    });
  });
});

describe('drafts and ?at= in the form (issue 11)', () => {
  const saved: Draft = {
    id: '7e1f3f2e-6b3c-4d22-8d2b-1c7f4f1f0d22',
    accountId: account.id,
    videos: [
      { mediaId: 'a', title: 'Premier', thumbnailUrl: null, coverTimestampMs: 1500 },
      { mediaId: 'b', title: '', thumbnailUrl: null, coverTimestampMs: null },
    ],
    privacyLevel: 'PUBLIC_TO_EVERYONE',
    allowComment: false,
    allowDuet: false,
    allowStitch: true,
    commercialContent: { enabled: true, yourBrand: true, brandedContent: false },
    isAigc: true,
    delivery: 'direct',
    createdAt: '2030-01-01T00:00:00.000Z',
    updatedAt: '2030-01-02T00:00:00.000Z',
  };

  it('opens a saved draft: its videos attached, captions, account and settings over the defaults', () => {
    const typed = scheduleDraftReducer(initialDraft('x', now, zone), {
      type: 'edit',
      patch: { publishType: 'spaced', captions: { 'media-x': 'old' } },
    });
    const opened = scheduleDraftReducer(typed, {
      type: 'openDraft',
      draft: saved,
      now,
      timeZone: zone,
    });
    expect(opened.attached).toEqual(['a', 'b']);
    expect(opened.savedDraftId).toBe(saved.id);
    expect(opened.fields.captions).toEqual({ 'media-a': 'Premier', 'media-b': '' });
    // Issue 12: the AI-generated label and the cover frames come back too.
    expect(opened.fields.covers).toEqual({ 'media-a': 1500 });
    expect(opened.fields.isAigc).toBe(true);
    expect(opened.fields.publishType).toBe('immediate');
    const values = scheduleFormValues(opened, draftAccountId(opened, null, [account]));
    expect(values).toMatchObject({
      accountId: account.id,
      privacyLevel: 'PUBLIC_TO_EVERYONE',
      allowComment: false,
      allowStitch: true,
      commercialContent: { enabled: true, yourBrand: true, brandedContent: false },
    });
    // Scheduling it names the draft, so the server deletes it with the schedule's creation.
    const ready = formVideos({
      attached: opened.attached,
      attachedMedia: [
        { data: media('a'), isError: false },
        { data: media('b'), isError: false },
      ],
      uploads: [],
      uploadedMedia: new Map(),
      maxDuration: 60,
    });
    const scheduled = scheduleDraftReducer(opened, {
      type: 'edit',
      patch: { publishType: 'scheduled', date: '2030-02-01', consent: true },
    });
    const check = scheduleFormCheck(
      scheduleFormValues(scheduled, account.id),
      ready,
      scheduled,
      'Europe/Paris',
    );
    expect(check.request).toMatchObject({
      kind: 'schedule',
      body: {
        draftId: saved.id,
        isAigc: true,
        posts: [{ mediaId: 'a', coverTimestampMs: 1500 }, { mediaId: 'b' }],
      },
    });
    // And saving it again keeps them.
    expect(buildDraftBody(scheduleFormValues(scheduled, account.id), ready)).toMatchObject({
      isAigc: true,
      posts: [{ mediaId: 'a', title: 'Premier', coverTimestampMs: 1500 }, { mediaId: 'b' }],
    });
  });

  it('starts over once saved, and forgets a draft deleted from the list', () => {
    const opened = scheduleDraftReducer(initialDraft(null, now, zone), {
      type: 'openDraft',
      draft: saved,
      now,
      timeZone: zone,
    });
    expect(scheduleDraftReducer(opened, { type: 'draftDeleted', id: 'other' }).savedDraftId).toBe(
      saved.id,
    );
    expect(
      scheduleDraftReducer(opened, { type: 'draftDeleted', id: saved.id }).savedDraftId,
    ).toBeNull();
    const fresh = scheduleDraftReducer(opened, {
      type: 'draftSaved',
      accountId: account.id,
      now,
      timeZone: zone,
    });
    expect(fresh).toEqual({ ...initialDraft(null, now, zone), accountId: account.id });
  });

  it('opens on ?at= as scheduled at that date and time', () => {
    expect(initialDraft(null, now, zone, '2030-03-14T18:30').fields).toMatchObject({
      publishType: 'scheduled',
      date: '2030-03-14',
      time: '18:30',
    });
    expect(initialDraft(null, now, zone, 'nonsense').fields).toMatchObject({
      publishType: 'immediate',
      date: '2030-01-05',
      time: '12:00',
    });
  });
});
