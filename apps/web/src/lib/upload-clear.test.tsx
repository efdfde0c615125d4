// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import type * as tus from 'tus-js-client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useVideoUploads } from './upload.ts';

/** Each tus upload the hook makes: started, then aborted (with `true`: its upload deleted) or not. */
const made = vi.hoisted(() => [] as { start: () => void; abort: (terminate?: boolean) => void }[]);

// tus itself is a third party's protocol client: only what it was asked to do matters here.
vi.mock('tus-js-client', async (importOriginal) => {
  const real = await importOriginal<typeof tus>();
  class Upload {
    url = null;
    start = vi.fn();
    abort = vi.fn(() => Promise.resolve());
    findPreviousUploads = () => Promise.resolve([]);
    constructor() {
      made.push(this);
    }
  }
  return { ...real, Upload };
});

beforeEach(() => {
  made.length = 0;
  // The server's configuration never arrives: no limit is known, nothing is refused before sending.
  vi.stubGlobal(
    'fetch',
    vi.fn(() => new Promise<Response>(() => undefined)),
  );
  vi.stubGlobal(
    'URL',
    Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: vi.fn() }),
  );
});
afterEach(() => vi.unstubAllGlobals());

function wrapper({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={new QueryClient()}>{children}</QueryClientProvider>;
}

describe('useVideoUploads', () => {
  // Opening a draft cleared the composer's uploads without stopping them: they went on sending,
  // tracked by nothing.
  it('clear() stops the uploads still sending, as removing one does', async () => {
    const { result } = renderHook(() => useVideoUploads(), { wrapper });
    act(() => {
      result.current.add([new File(['x'], 'clip.mp4', { type: 'video/mp4' })]);
    });
    await vi.waitFor(() => expect(made[0]?.start).toHaveBeenCalled());
    expect(made).toHaveLength(1);
    act(() => result.current.clear());
    expect(made[0]!.abort).toHaveBeenCalledWith(true);
    expect(result.current.items).toEqual([]);
    expect(result.current.uploading).toBe(false);
  });

  it('abandon() stops the uploads still sending', async () => {
    const { result } = renderHook(() => useVideoUploads(), { wrapper });
    act(() => {
      result.current.add([new File(['x'], 'clip.mp4', { type: 'video/mp4' })]);
    });
    await vi.waitFor(() => expect(made[0]?.start).toHaveBeenCalled());
    act(() => result.current.abandon());
    expect(made[0]!.abort).toHaveBeenCalledWith(true);
    expect(result.current.items).toEqual([]);
  });

  // tus-js-client loads with the first upload (upload.ts): a video removed, or a composer cleared,
  // before it has arrived must not start sending once it does.
  it('an upload removed while the tus client loads never starts', async () => {
    const { result } = renderHook(() => useVideoUploads(), { wrapper });
    let removed = '';
    act(() => {
      removed = result.current.add([new File(['x'], 'gone.mp4', { type: 'video/mp4' })])[0]!.key;
      result.current.remove(removed);
      result.current.add([new File(['y'], 'kept.mp4', { type: 'video/mp4' })]);
    });
    // The kept one starts once the client has loaded; by then the removed one had its chance.
    await vi.waitFor(() => expect(made[0]?.start).toHaveBeenCalled());
    expect(made).toHaveLength(1);
    expect(result.current.items.map((item) => item.file.name)).toEqual(['kept.mp4']);
  });
});
