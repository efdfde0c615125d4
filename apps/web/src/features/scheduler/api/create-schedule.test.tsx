// @vitest-environment jsdom
import type { CreateScheduleRequest } from '@cadence/shared/schemas/schedule';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useCreateSchedule } from './create-schedule.ts';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const request = {
  accountId: '11111111-1111-4111-8111-111111111111',
  mediaIds: ['22222222-2222-4222-8222-222222222222'],
  publishType: 'immediate',
  timeZone: 'Europe/Paris',
  posts: [],
  privacyLevel: 'SELF_ONLY',
  allowComment: true,
  allowDuet: false,
  allowStitch: false,
  commercialContent: { enabled: false, yourBrand: false, brandedContent: false },
  consent: true,
} as unknown as CreateScheduleRequest;

/** The network as the form meets it: each answer in turn (`lost`: the connection drops). */
function stubNetwork(answers: Array<'lost' | 'created'>) {
  const keys: Array<string | null> = [];
  vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
    keys.push(new Headers(init.headers).get('idempotency-key'));
    if (answers.shift() === 'lost') throw new TypeError('Failed to fetch');
    return new Response(JSON.stringify({ scheduleId: 's1', posts: [] }), { status: 201 });
  });
  return keys;
}

function renderCreate() {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  return renderHook(() => useCreateSchedule(), { wrapper }).result;
}

describe('the schedule form’s request', () => {
  it('sends a click again after a lost answer with the same key, so the server makes it once', async () => {
    const keys = stubNetwork(['lost', 'created']);
    const create = renderCreate();
    await act(() => create.current.mutateAsync(request).catch(() => undefined));
    await act(() => create.current.mutateAsync(request));
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[1]).toBe(keys[0]);
  });

  it('gives an edited request, or the same one once made, a new key', async () => {
    const keys = stubNetwork(['lost', 'created', 'created']);
    const create = renderCreate();
    await act(() => create.current.mutateAsync(request).catch(() => undefined));
    await act(() =>
      create.current.mutateAsync({ ...request, privacyLevel: 'MUTUAL_FOLLOW_FRIENDS' }),
    );
    await act(() =>
      create.current.mutateAsync({ ...request, privacyLevel: 'MUTUAL_FOLLOW_FRIENDS' }),
    );
    expect(new Set(keys).size).toBe(3);
  });
});
