// @vitest-environment jsdom
import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useUnloadWarning } from './upload.ts';

/** Whether leaving the page now would ask first (a listener cancelled beforeunload). */
function leavingAsks(): boolean {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

describe('useUnloadWarning', () => {
  it('asks before the page unloads only while an upload runs', () => {
    const { rerender, unmount } = renderHook(
      ({ uploading }: { uploading: boolean }) => useUnloadWarning(uploading),
      { initialProps: { uploading: false } },
    );
    expect(leavingAsks()).toBe(false);
    rerender({ uploading: true });
    expect(leavingAsks()).toBe(true);
    rerender({ uploading: false });
    expect(leavingAsks()).toBe(false);
    rerender({ uploading: true });
    unmount();
    expect(leavingAsks()).toBe(false);
  });
});
