import { afterEach, describe, expect, it, vi } from 'vitest';
import { yieldToMain } from './yield-to-main.ts';

describe('yieldToMain', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('ends the task: a task queued before it runs before what follows it', async () => {
    const order: string[] = [];
    setTimeout(() => order.push('queued task'), 0);
    void Promise.resolve().then(() => order.push('microtask'));
    await yieldToMain();
    order.push('after the yield');
    expect(order).toEqual(['microtask', 'queued task', 'after the yield']);
  });

  it("uses the browser's scheduler.yield where there is one", async () => {
    const schedulerYield = vi.fn(() => Promise.resolve());
    vi.stubGlobal('scheduler', { yield: schedulerYield });
    await yieldToMain();
    expect(schedulerYield).toHaveBeenCalledOnce();
  });
});
