// @vitest-environment jsdom
import { failRemedy, publishFailReasons } from '@cadence/shared/publish-fail-reasons';
import type { Post } from '@cadence/shared/schemas/schedule';
import { cleanup, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resources } from '../../../lib/i18n.ts';
import { testPost } from './post-fixture.ts';
import type { PostActions } from './post-buttons.tsx';
import { PostItem } from './post-item.tsx';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({ resources, lng: 'fr', fallbackLng: false });
});
afterEach(cleanup);

const noop = () => undefined;
const actions: PostActions = {
  onEdit: noop,
  onCancel: noop,
  onReschedule: noop,
  onRetry: noop,
  onRestore: noop,
  busyId: null,
};

function failedPost(failReason: string | null): Post {
  return testPost('post-1', '2026-06-01T08:00:00.000Z', {
    title: 'Recette du dimanche',
    status: 'failed',
    failReason,
  });
}

/** The row's actions, by accessible name, in the order a keyboard reaches them. */
function actionsOf(failReason: string | null): string[] {
  render(
    <I18nextProvider i18n={i18n}>
      <MemoryRouter>
        <PostItem
          post={failedPost(failReason)}
          actions={actions}
          timeZone="Europe/Paris"
          now={new Date('2026-06-02T08:00:00.000Z')}
        />
      </MemoryRouter>
    </I18nextProvider>,
  );
  const row = screen.getByRole('article');
  return [...row.querySelectorAll('a, button')].map(
    (control) => control.getAttribute('aria-label') ?? control.textContent ?? '',
  );
}

const retry = 'Réessayer la publication « Recette du dimanche » sur @lea';
const reschedule = 'Reprogrammer la publication « Recette du dimanche » sur @lea';
const reconnect = 'Reconnecter le compte @lea dans Comptes TikTok';

describe('a failed post offers what its reason calls for', () => {
  it.each(publishFailReasons.filter((reason) => failRemedy(reason) === 'schedule_again'))(
    '%s: no retry or reschedule, since the same video and settings would fail again',
    (reason) => {
      expect(actionsOf(reason)).toEqual([]);
    },
  );

  it.each(publishFailReasons.filter((reason) => failRemedy(reason) === 'reconnect'))(
    '%s: reconnecting the account comes first, then retry',
    (reason) => {
      expect(actionsOf(reason)).toEqual([reconnect, retry, reschedule]);
      expect(screen.getByRole('link', { name: reconnect }).getAttribute('href')).toBe('/tiktok');
    },
  );

  it.each(['rate_limit_exceeded', 'publisher_error', 'something_from_2019', null])(
    '%s: retry and reschedule',
    (reason) => {
      expect(actionsOf(reason)).toEqual([retry, reschedule]);
    },
  );

  it('a suspended account keeps a retry for later, but not as the first thing to do', () => {
    expect(actionsOf('spam_risk_user_banned_from_posting')).toEqual([retry, reschedule]);
    expect(screen.getByRole('button', { name: retry }).className).toContain('bg-white');
  });
});

describe("a published post's figures", () => {
  function rowText(patch: Partial<Post>): string {
    render(
      <I18nextProvider i18n={i18n}>
        <MemoryRouter>
          <PostItem
            post={testPost('post-1', '2026-06-01T08:00:00.000Z', { status: 'completed', ...patch })}
            actions={actions}
            timeZone="Europe/Paris"
            now={new Date('2026-06-02T08:00:00.000Z')}
          />
        </MemoryRouter>
      </I18nextProvider>,
    );
    return screen.getByRole('article').textContent ?? '';
  }
  const soon = 'Chiffres TikTok bientôt disponibles';

  // TikTok gives an 'Only me' post no id, so its figures never come: it said 'soon' forever.
  it('a private post says TikTok gives no figures for it, not that they are coming', () => {
    const text = rowText({ privacyLevel: 'SELF_ONLY', tiktokPostId: null });
    expect(text).toContain('Vidéo privée : TikTok ne donne pas de chiffres');
    expect(text).not.toContain(soon);
  });

  it('a public post waits for its figures; an inbox draft has none to wait for', () => {
    expect(rowText({ privacyLevel: 'PUBLIC_TO_EVERYONE', tiktokPostId: null })).toContain(soon);
    cleanup();
    const inbox = rowText({ delivery: 'inbox', privacyLevel: 'SELF_ONLY' });
    expect(inbox).not.toContain(soon);
    expect(inbox).not.toContain('Vidéo privée');
  });
});

describe('a post in the history', () => {
  function renderRow(post: Post) {
    render(
      <I18nextProvider i18n={i18n}>
        <MemoryRouter>
          <PostItem
            post={post}
            actions={actions}
            timeZone="Europe/Paris"
            now={new Date('2026-06-10T12:00:00.000Z')}
          />
        </MemoryRouter>
      </I18nextProvider>,
    );
    return screen.getByRole('article');
  }

  // Regression: the history showed a cancelled post at its due time, under its due day.
  it('a post cancelled for later shows when it was cancelled, and when it had been due', () => {
    const row = renderRow(
      testPost('post-1', '2026-06-12T16:00:00.000Z', {
        status: 'cancelled',
        outcomeAt: '2026-06-10T11:30:00.000Z',
      }),
    );
    expect(row.querySelector('time')?.textContent).toBe('13:30');
    expect(row.querySelector('time')?.getAttribute('datetime')).toBe('2026-06-10T11:30:00.000Z');
    // ICU writes 'à' or ',' between date and time, by version.
    expect(screen.getByTestId('was-due').textContent).toMatch(/^Prévue le 12 juin 2026.+18:00$/);
  });

  it('a published post shows when it was published', () => {
    const row = renderRow(
      testPost('post-1', '2026-06-10T08:00:00.000Z', {
        status: 'completed',
        outcomeAt: '2026-06-10T08:03:00.000Z',
      }),
    );
    expect(row.querySelector('time')?.textContent).toBe('10:03');
    expect(screen.queryByTestId('was-due')).toBeNull();
  });
});
