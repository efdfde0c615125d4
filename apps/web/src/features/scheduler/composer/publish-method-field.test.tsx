// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { useState } from 'react';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resources } from '../../../lib/i18n.ts';
import { initialFormState, type ScheduleFormState } from './form-state.ts';
import { PublishMethodField } from './publish-method-field.tsx';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({ resources, lng: 'fr', fallbackLng: false });
});
afterEach(cleanup);

/** The field as the form holds it, with the state it last received kept for assertions. */
function SpacedFields({ videoCount, seen }: { videoCount: number; seen: ScheduleFormState[] }) {
  const [state, setState] = useState<ScheduleFormState>({
    ...initialFormState('', new Date(), 'Europe/Paris'),
    publishType: 'spaced',
  });
  return (
    <PublishMethodField
      state={state}
      onChange={(patch) =>
        setState((current) => {
          const next = { ...current, ...patch };
          seen.push(next);
          return next;
        })
      }
      errors={{}}
      videoCount={videoCount}
      isPro={false}
      timeZone="Europe/Paris"
      ids={{
        date: 'date',
        time: 'time',
        count: 'count',
        value: 'value',
        startTime: 'start',
        startDate: 'start-date',
      }}
    />
  );
}

function renderWith(videoCount: number) {
  const seen: ScheduleFormState[] = [];
  render(
    <QueryClientProvider client={new QueryClient()}>
      <I18nextProvider i18n={i18n}>
        <SpacedFields videoCount={videoCount} seen={seen} />
      </I18nextProvider>
    </QueryClientProvider>,
  );
  const field = screen.getByLabelText<HTMLInputElement>('Vidéos par intervalle');
  return { field, seen, lastCount: () => seen.at(-1)?.interval.count };
}

describe('spaced publishing count', () => {
  // Regression: the count followed the number of videos only when that number changed, so
  // typing 5 with 2 videos selected showed (and kept) 5.
  it('never shows more videos per interval than are selected, as soon as it is typed', async () => {
    const user = userEvent.setup();
    const { field, lastCount } = renderWith(2);
    await user.clear(field);
    await user.type(field, '5');
    expect(field.value).toBe('2');
    expect(lastCount()).toBe(2);
    // Another digit after the 2 cannot take it past the videos either.
    await user.type(field, '7');
    expect(field.value).toBe('2');
    await user.tab();
    expect(field.value).toBe('2');
  });

  it('lets the person empty the field and type a smaller number, without forcing 1 in between', async () => {
    const user = userEvent.setup();
    const { field, lastCount } = renderWith(12);
    await user.clear(field);
    expect(field.value).toBe('');
    expect(lastCount()).toBe(0);
    await user.type(field, '12');
    expect(field.value).toBe('12');
    await user.clear(field);
    await user.type(field, '15');
    expect(field.value).toBe('12');
    await user.clear(field);
    await user.type(field, '3');
    await user.tab();
    expect(field.value).toBe('3');
    expect(lastCount()).toBe(3);
  });
});
