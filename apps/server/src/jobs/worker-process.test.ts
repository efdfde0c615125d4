import { describe, expect, it } from 'vitest';
import { createWorkerProcess } from './worker-process.ts';

/** A registration that remembers what it was told. */
function recording() {
  const holdings: number[] = [];
  const record = async (_id: string, holding: number) => {
    holdings.push(holding);
  };
  return { holdings, record };
}

describe('the runs a worker process admits', () => {
  it('admits a run alone only once no other run is going, and says it holds one post before it starts', async () => {
    const { holdings, record } = recording();
    const worker = createWorkerProcess(record);
    expect(worker.enter()).toBe(true);
    expect(await worker.enterAlone()).toBe(false);
    worker.leave();
    expect(await worker.enterAlone()).toBe(true);
    // Recorded before the run was admitted: a death in its first second is blamed on it.
    expect(holdings).toEqual([1]);
    expect(worker.running()).toBe(1);
  });

  it('turns new runs away while a run waits to be alone (the process drains) and while it runs', async () => {
    const { record } = recording();
    const worker = createWorkerProcess(record);
    expect(worker.enter()).toBe(true);
    expect(await worker.enterAlone()).toBe(false);
    // Draining: other posts go elsewhere or come back later.
    expect(worker.enter()).toBe(false);
    worker.leave();
    expect(await worker.enterAlone()).toBe(true);
    expect(worker.enter()).toBe(false);
    expect(await worker.enterAlone()).toBe(false);
    worker.leave();
    expect(worker.running()).toBe(0);
    // The second run alone still waits its turn: this process stays drained for it.
    expect(worker.enter()).toBe(false);
    expect(await worker.enterAlone()).toBe(true);
  });

  it('says at once when a second run joins the first (company from then on)', () => {
    const { holdings, record } = recording();
    const worker = createWorkerProcess(record);
    expect(worker.enter()).toBe(true);
    expect(worker.enter()).toBe(true);
    expect(worker.enter()).toBe(true);
    expect(holdings).toEqual([2]);
  });

  it('does not admit a run alone whose registration failed (its death could not be told apart)', async () => {
    const worker = createWorkerProcess(async () => {
      throw new Error('database away');
    });
    expect(await worker.enterAlone()).toBe(false);
    expect(worker.running()).toBe(0);
    expect(worker.enter()).toBe(true);
  });
});
