// @vitest-environment jsdom
import type { AnalyticsAccount, BestTimes } from '@cadence/shared/schemas/analytics';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { resources } from '../../lib/i18n.ts';
import { SlotSuggestion, type SuggestedSlot } from './slot-suggestion.tsx';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({ resources, lng: 'fr', fallbackLng: false });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const cardId = '11111111-1111-4111-8111-111111111111';
const historyId = '22222222-2222-4222-8222-222222222222';
const account: AnalyticsAccount = {
  id: historyId,
  username: 'lea',
  displayName: null,
  avatarUrl: null,
  accountId: cardId,
  connected: true,
  videoCount: 40,
  lastSyncedAt: '2026-03-01T10:00:00.000Z',
};

function bestTimes(status: BestTimes['status']): BestTimes {
  return {
    status,
    videosAnalysed: status === 'ok' ? 40 : 3,
    minimumVideos: 10,
    timeZone: 'Europe/Paris',
    cells: [],
    slots:
      status === 'ok'
        ? [
            // Tuesday 3 March 2026, 18:00 in Paris.
            {
              weekday: 1,
              hour: 18,
              score: 2.1,
              confidence: 0.8,
              nextAt: '2026-03-03T17:00:00.000Z',
            },
            {
              weekday: 3,
              hour: 12,
              score: 1.5,
              confidence: 0.6,
              nextAt: '2026-03-05T11:00:00.000Z',
            },
          ]
        : [],
  };
}

/** The API as the component reads it: the user's histories, then that history's best times. */
function stubApi(answer: BestTimes) {
  const requests: string[] = [];
  vi.stubGlobal('fetch', async (url: string) => {
    requests.push(url);
    const body = url.startsWith('/api/analytics/accounts') ? { accounts: [account] } : answer;
    return new Response(JSON.stringify(body), { status: 200 });
  });
  return requests;
}

function renderSuggestion(onUse: (slot: SuggestedSlot) => void) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={i18n}>
        <SlotSuggestion accountId={cardId} timeZone="Europe/Paris" onUse={onUse} />
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

describe('SlotSuggestion', () => {
  it('offers the account’s best slots in words and fills in the next occurrence when used', async () => {
    const requests = stubApi(bestTimes('ok'));
    const used: SuggestedSlot[] = [];
    renderSuggestion((slot) => used.push(slot));
    const button = await screen.findByRole('button', {
      name: 'Suggéré : mardi 18:00 — utiliser ce créneau',
    });
    expect(button.textContent).toBe('Suggéré : mardi 18:00');
    expect(screen.getByText('Suggéré : jeudi 12:00')).toBeTruthy();
    expect(requests.some((url) => url.includes(`accountId=${historyId}`))).toBe(true);
    await userEvent.click(button);
    expect(used).toEqual([
      {
        date: '2026-03-03',
        time: '18:00',
        at: new Date('2026-03-03T17:00:00.000Z'),
        weekday: 1,
        hour: 18,
      },
    ]);
  });

  it('offers nothing while the account has too little history', async () => {
    const requests = stubApi(bestTimes('not_enough_data'));
    renderSuggestion(() => undefined);
    await vi.waitFor(() => expect(requests.some((url) => url.includes('best-times'))).toBe(true));
    expect(screen.queryByRole('button')).toBeNull();
  });
});
