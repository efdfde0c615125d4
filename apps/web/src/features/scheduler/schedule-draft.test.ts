import type { Account, CreatorInfo } from '@cadence/shared/schemas/account';
import type { Media } from '@cadence/shared/schemas/media';
import { describe, expect, it } from 'vitest';
import type { UploadItem } from '../../lib/upload.ts';
import {
  draftAccountId,
  formVideos,
  initialDraft,
  scheduleDraftReducer,
  scheduleFormCheck,
  scheduleFormValues,
  type DraftAction,
  type ScheduleDraft,
} from './schedule-draft.ts';

const now = new Date(2030, 0, 5, 8, 0);
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
    const draft = initialDraft('story-1', now);
    expect(draft.attached).toEqual(['story-1']);
    expect(draft.accountId).toBeNull();
    expect(draft.fields).toMatchObject({
      publishType: 'immediate',
      date: '2030-01-05',
      time: '12:00',
    });
    expect(initialDraft(null, now).attached).toEqual([]);
  });

  it('shows the ?account= account once it is among the schedulable ones, until the person picks another', () => {
    const draft = initialDraft(null, now);
    expect(draftAccountId(draft, account.id, [])).toBe('');
    expect(draftAccountId(draft, account.id, [other, account])).toBe(account.id);
    const picked = run(draft, { type: 'selectAccount', accountId: other.id });
    // A refetched account list no longer takes the person's choice back.
    expect(draftAccountId(picked, account.id, [other, account])).toBe(other.id);
  });

  it("shows the account's saved defaults limited by TikTok, only once the creator info is in, under the person's own choices", () => {
    const draft = initialDraft(null, now);
    expect(scheduleFormValues(draft, account.id, account, undefined)).toMatchObject({
      privacyLevel: '',
      allowComment: false,
      allowDuet: false,
    });
    expect(scheduleFormValues(draft, account.id, account, creator)).toMatchObject({
      accountId: account.id,
      privacyLevel: 'SELF_ONLY',
      allowComment: true,
      allowDuet: false, // duets disabled by TikTok
      allowStitch: false,
    });
    const edited = run(draft, { type: 'edit', patch: { allowComment: false, consent: true } });
    expect(scheduleFormValues(edited, account.id, account, creator)).toMatchObject({
      privacyLevel: 'SELF_ONLY',
      allowComment: false,
      consent: true,
    });
    // Another account starts from its own defaults again.
    const switched = run(edited, { type: 'selectAccount', accountId: other.id });
    expect(scheduleFormValues(switched, other.id, other, creator).allowComment).toBe(true);
    expect(switched.fields.consent).toBe(true);
  });

  it('brings the spaced count down when a video is removed, never up, and drops its caption', () => {
    const draft = run(
      initialDraft('story-1', now),
      { type: 'edit', patch: { interval: { ...initialDraft(null).fields.interval, count: 3 } } },
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
      initialDraft('story-1', now),
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
      { type: 'scheduled', accountId: account.id, now: new Date(2030, 0, 6, 9, 0) },
    );
    expect(scheduled).toEqual({
      ...initialDraft(null, new Date(2030, 0, 6)),
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
    });
  });

  it('waits for uploading videos without an error, and asks to remove failed or too long ones', () => {
    const values = {
      ...scheduleFormValues(initialDraft(null, now), account.id, account, creator),
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
      { attempted: true, serverErrors: {} },
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
      { attempted: false, serverErrors: {} },
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
      { attempted: true, serverErrors: {} },
      'Europe/Paris',
    );
    expect(ok.request).toMatchObject({
      accountId: account.id,
      mediaIds: ['a'],
      privacyLevel: 'SELF_ONLY',
    });
  });
});
