// PGlite's one connection (ConnectionLock): urgent holders first, and a queue of statements that
// run synchronously on this thread still lets timers and sockets have their turn (decision 039).
import { describe, expect, it } from 'vitest';
import { ConnectionLock } from './pglite-dialect.ts';

/** Keeps the thread busy for `ms`, as PGlite's synchronous statement execution does. */
function busyFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // spinning
  }
}

describe('ConnectionLock', () => {
  it('hands the connection to urgent waiters first, each lane in its order', async () => {
    const lock = new ConnectionLock();
    const order: string[] = [];
    const release = await lock.acquire();
    const holders = [
      ['normal 1', false],
      ['normal 2', false],
      ['urgent 1', true],
      ['urgent 2', true],
    ].map(async ([name, urgent]) => {
      const done = await lock.acquire(urgent === true);
      order.push(String(name));
      done();
    });
    release();
    await Promise.all(holders);
    expect(order).toEqual(['urgent 1', 'urgent 2', 'normal 1', 'normal 2']);
  });

  it('never lets two hold it at once, whatever the lanes', async () => {
    const lock = new ConnectionLock();
    let holding = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 60 }, (_, index) =>
        lock.acquire(index % 3 === 0).then(async (release) => {
          holding += 1;
          most = Math.max(most, holding);
          await Promise.resolve();
          holding -= 1;
          release();
        }),
      ),
    );
    expect(most).toBe(1);
  });

  it('lets a timer fire while a long queue of busy statements drains', async () => {
    const lock = new ConnectionLock();
    const statements = 200;
    let ran = 0;
    let ranWhenTimerFired: number | null = null;
    const timer = new Promise<void>((done) =>
      setTimeout(() => {
        ranWhenTimerFired = ran;
        done();
      }, 0),
    );
    // 200 statements of 1 ms each, queued at once: 200 ms of work, which used to run as one
    // chain of microtasks with the timer waiting for the end.
    await Promise.all(
      Array.from({ length: statements }, () =>
        lock.run(async () => {
          busyFor(1);
          ran += 1;
        }),
      ),
    );
    await timer;
    expect(ranWhenTimerFired).not.toBeNull();
    expect(ranWhenTimerFired).toBeLessThan(statements / 2);
  });
});
