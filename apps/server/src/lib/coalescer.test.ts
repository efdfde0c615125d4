import { describe, expect, it } from 'vitest';
import { createCoalescer } from './coalescer.ts';

interface Item {
  key: string;
  value: number;
  priority?: number;
}

/** A coalescer whose batches are recorded and answered when `answer` is called. */
function recorded(options: {
  maxBatch: number;
  maxInFlight: number;
  windowMs?: number;
  priorityOf?: (item: Item) => number;
}) {
  const batches: Item[][] = [];
  const pending: {
    items: Item[];
    done: (results: number[]) => void;
    fail: (e: unknown) => void;
  }[] = [];
  const call = createCoalescer(
    (items: Item[]) =>
      new Promise<number[]>((done, fail) => {
        batches.push(items);
        pending.push({ items, done, fail });
      }),
    { windowMs: options.windowMs ?? 0, groupOf: (item) => item.key, ...options },
  );
  const answerNext = () => {
    const next = pending.shift();
    next?.done(next.items.map((item) => item.value * 10));
  };
  return { call, batches, pending, answerNext };
}

const turn = () => new Promise((done) => setImmediate(done));

describe('createCoalescer', () => {
  it('sends calls of one turn as one batch, each caller getting its own result', async () => {
    const { call, batches, answerNext } = recorded({ maxBatch: 10, maxInFlight: 2 });
    const results = [1, 2, 3].map((value) => call({ key: `k${value}`, value }));
    await turn();
    expect(batches.map((batch) => batch.length)).toEqual([3]);
    answerNext();
    expect(await Promise.all(results)).toEqual([10, 20, 30]);
  });

  it('puts the items of one key in one batch, in their order, never more than maxBatch', async () => {
    const { call, batches, answerNext } = recorded({ maxBatch: 3, maxInFlight: 10 });
    const results = [
      call({ key: 'a', value: 1 }),
      call({ key: 'b', value: 2 }),
      call({ key: 'a', value: 3 }),
      call({ key: 'c', value: 4 }),
      call({ key: 'b', value: 5 }),
      call({ key: 'a', value: 6 }),
      call({ key: 'a', value: 7 }),
    ];
    await turn();
    // a's first three fill the first batch; its fourth waits for the next, after b's and c's.
    expect(batches.map((batch) => batch.map((item) => item.value))).toEqual([
      [1, 3, 6],
      [2, 5, 4],
      [7],
    ]);
    answerNext();
    answerNext();
    answerNext();
    expect(await Promise.all(results)).toEqual([10, 20, 30, 40, 50, 60, 70]);
  });

  it('takes the lowest priority first, a key gathering only items of one priority', async () => {
    const { call, batches, answerNext } = recorded({
      maxBatch: 2,
      maxInFlight: 1,
      priorityOf: (item) => item.priority ?? 0,
    });
    // Two accounts' inits, their ranks in the window as priorities, arriving out of rank order.
    const results = [
      call({ key: 'a', value: 1, priority: 2 }),
      call({ key: 'a', value: 2, priority: 0 }),
      call({ key: 'b', value: 3, priority: 1 }),
      call({ key: 'b', value: 4, priority: 0 }),
      call({ key: 'a', value: 5, priority: 1 }),
      call({ key: 'b', value: 6, priority: 2 }),
    ];
    for (let batch = 0; batch < 3; batch++) {
      await turn();
      answerNext();
    }
    // In order of arrival, they would have gone as [1, 2], [3, 4], [5, 6].
    expect(batches.map((batch) => batch.map((item) => item.value))).toEqual([
      [2, 4],
      [3, 5],
      [1, 6],
    ]);
    expect(await Promise.all(results)).toEqual([10, 20, 30, 40, 50, 60]);
  });

  it('gathers calls made while maxInFlight batches are out for the next batch', async () => {
    const { call, batches, answerNext } = recorded({ maxBatch: 10, maxInFlight: 1 });
    const first = call({ key: 'a', value: 1 });
    await turn();
    const later = [2, 3, 4].map((value) => call({ key: `k${value}`, value }));
    await turn();
    expect(batches).toHaveLength(1);
    answerNext();
    expect(await first).toBe(10);
    await turn();
    expect(batches.map((batch) => batch.length)).toEqual([1, 3]);
    answerNext();
    expect(await Promise.all(later)).toEqual([20, 30, 40]);
  });

  it('fails every caller of a failed batch with its error, and goes on with the next', async () => {
    const { call, pending, answerNext } = recorded({ maxBatch: 10, maxInFlight: 1 });
    const failed = [call({ key: 'a', value: 1 }), call({ key: 'b', value: 2 })];
    await turn();
    const error = new Error('connection lost');
    pending.shift()?.fail(error);
    for (const result of failed) await expect(result).rejects.toBe(error);
    const next = call({ key: 'a', value: 3 });
    await turn();
    answerNext();
    expect(await next).toBe(30);
  });
});
