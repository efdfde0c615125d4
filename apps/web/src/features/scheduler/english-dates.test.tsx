// @vitest-environment jsdom
// Regression: the plan preview and the drafts list passed the bare 'en' to Intl, which writes US
// dates and a 12-hour clock ('Tue, Dec 1', 'saved Dec 1, 12:30 PM'), where every other screen
// and the e-mails write en-GB ('Tue 1 Dec', '12:30'). French must not change.
import type { Language } from '@cadence/shared/errors';
import type { Draft, SchedulePreview } from '@cadence/shared/schemas/planning';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import i18next, { type i18n as I18n } from 'i18next';
import type { ReactNode } from 'react';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resources } from '../../lib/i18n.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { DraftsPanel } from './drafts/drafts-panel.tsx';
import { PlanPreview } from './slots/plan-preview.tsx';

const instances = {} as Record<Language, I18n>;
beforeAll(async () => {
  for (const language of ['fr', 'en'] as const) {
    instances[language] = i18next.createInstance();
    await instances[language].use(initReactI18next).init({
      resources,
      lng: language,
      fallbackLng: false,
    });
  }
});
afterEach(cleanup);

function renderIn(language: Language, ui: ReactNode, queryClient = new QueryClient()) {
  render(
    <QueryClientProvider client={queryClient}>
      <I18nextProvider i18n={instances[language]}>{ui}</I18nextProvider>
    </QueryClientProvider>,
  );
}

// Tuesday 1 December 2026, 14:30 in Paris; over the cap, moved to Wednesday at the same time.
const preview: SchedulePreview = {
  timeZone: 'Europe/Paris',
  posts: [
    {
      mediaId: 'media-1',
      dueAt: '2026-12-01T13:30:00.000Z',
      earliest: '2026-12-01T13:30:00.000Z',
      latest: '2026-12-01T13:30:00.000Z',
      date: '2026-12-01',
      overCap: true,
      suggestedDueAt: '2026-12-02T13:30:00.000Z',
    },
  ],
  days: [{ date: '2026-12-01', existing: 15, proposed: 1, cap: 15, over: 1 }],
  dailyCap: 15,
};

function previewText(language: Language): string {
  renderIn(
    language,
    <PlanPreview
      preview={preview}
      posts={preview.posts.length}
      loading={false}
      error={null}
      postpone
      onPostpone={() => undefined}
    />,
  );
  return screen.getByRole('list').textContent ?? '';
}

// Saved on 1 December 2026 in the afternoon, in any zone from UTC−11 to UTC+11 (the browser's).
const draft: Draft = {
  id: 'draft-1',
  accountId: null,
  videos: [{ mediaId: 'media-1', title: 'Recette', thumbnailUrl: null, coverTimestampMs: null }],
  privacyLevel: null,
  allowComment: false,
  allowDuet: false,
  allowStitch: false,
  commercialContent: { enabled: false, yourBrand: false, brandedContent: false },
  isAigc: false,
  delivery: 'direct',
  createdAt: '2026-12-01T12:30:00.000Z',
  updatedAt: '2026-12-01T12:30:00.000Z',
};

/** The line under the draft's name: its videos and when it was saved. */
function savedLine(language: Language): string {
  const queryClient = new QueryClient();
  queryClient.setQueryData(queryKeys.drafts, [draft]);
  renderIn(
    language,
    <DraftsPanel
      enabled={false}
      accounts={[]}
      currentDraftId={null}
      onOpen={() => undefined}
      onDeleted={() => undefined}
    />,
    queryClient,
  );
  return screen.getByText(/1 (video|vidéo)/).textContent ?? '';
}

describe('the plan preview writes its dates as the rest of the app does', () => {
  it('in English, day before month (en-GB) and a 24-hour clock', () => {
    const text = previewText('en');
    expect(text).toContain('Tue 1 Dec');
    expect(text).toContain('14:30');
    expect(text).toContain('moved to Wed 2 Dec 14:30');
    expect(text).not.toMatch(/, Dec|AM|PM/);
  });

  it('in French, unchanged', () => {
    const text = previewText('fr');
    expect(text).toContain('mar. 1er déc.');
    expect(text).toContain('déplacée au mer. 2 déc. 14:30');
  });
});

describe('a draft says when it was saved as the rest of the app does', () => {
  it('in English, day before month (en-GB) and a 24-hour clock', () => {
    expect(savedLine('en')).toMatch(/ · saved 1 Dec, \d\d:30$/);
  });

  it('in French, unchanged', () => {
    expect(savedLine('fr')).toMatch(/ · enregistré le 1er déc\., \d\d:30$/);
  });
});
