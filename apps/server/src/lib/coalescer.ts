/**
 * Gathers calls made within a short window into batches sent as one operation each (a single SQL
 * statement, say), and gives each caller its own answer. Used for the confirmations of prepared
 * publishing runs, which all arrive at a post's due instant (decision 039).
 *
 * - A batch holds at most `maxBatch` items, and the items waiting with the same `groupOf` go in
 *   the same batch (as many as it has room for), in their order of arrival: batches out at once
 *   then touch different rows (an account's pacing row, say) and never wait for each other's
 *   locks.
 * - With `priorityOf`, waiting items go in order of priority (lowest first), then of arrival, and
 *   a group only gathers items of one priority: an item that others wait on (an account's first
 *   init of a window, say) never waits behind one that nothing waits on.
 * - At most `maxInFlight` batches are out at once; calls made meanwhile gather for the next ones
 *   (group commit): an idle coalescer sends at the event loop's next turn, a busy one in bigger
 *   batches, without taking every connection of a pool.
 * - A batch that fails fails each of its callers with the same error, as a call of its own would
 *   have; `send` must answer one result per item, in the items' order.
 */
export interface CoalescerOptions<TItem> {
  /** The largest batch sent (at least 1). */
  maxBatch: number;
  /** How long the first call of a batch waits for others (0: until the event loop's next turn). */
  windowMs: number;
  /** Batches sent and not yet answered, at most (at least 1). */
  maxInFlight: number;
  /** Items waiting together that share a key (and priority) go in one batch. */
  groupOf?: (item: TItem) => string;
  /** Lower goes first among the items waiting (default: all alike, in order of arrival). */
  priorityOf?: (item: TItem) => number;
}

interface Waiting<TItem, TResult> {
  item: TItem;
  resolve: (result: TResult) => void;
  reject: (error: unknown) => void;
}

export function createCoalescer<TItem, TResult>(
  send: (items: TItem[]) => Promise<TResult[]>,
  options: CoalescerOptions<TItem>,
): (item: TItem) => Promise<TResult> {
  const maxBatch = Math.max(1, Math.floor(options.maxBatch));
  const maxInFlight = Math.max(1, Math.floor(options.maxInFlight));
  let waiting: Waiting<TItem, TResult>[] = [];
  let scheduled = false;
  let inFlight = 0;

  /** The items of the next batch, in their order (see the options), removed from `waiting`. */
  function takeBatch(): Waiting<TItem, TResult>[] {
    const { groupOf, priorityOf } = options;
    // Array.prototype.sort is stable: arrival order within a priority.
    const queue =
      priorityOf === undefined
        ? waiting
        : [...waiting].sort((a, b) => priorityOf(a.item) - priorityOf(b.item));
    let batch: Waiting<TItem, TResult>[];
    if (groupOf === undefined) batch = queue.slice(0, maxBatch);
    else {
      // The groups in the order their first item comes, each item in its group's order.
      const groups = new Map<string, Waiting<TItem, TResult>[]>();
      for (const entry of queue) {
        const key =
          priorityOf === undefined
            ? groupOf(entry.item)
            : `${priorityOf(entry.item)} ${groupOf(entry.item)}`;
        const group = groups.get(key);
        if (group) group.push(entry);
        else groups.set(key, [entry]);
      }
      batch = [];
      for (const group of groups.values()) {
        if (batch.length >= maxBatch) break;
        batch.push(...group.slice(0, maxBatch - batch.length));
      }
    }
    const taken = new Set(batch);
    waiting = waiting.filter((entry) => !taken.has(entry));
    return batch;
  }

  async function sendBatch(batch: Waiting<TItem, TResult>[]): Promise<void> {
    inFlight += 1;
    let results: TResult[];
    try {
      results = await send(batch.map((entry) => entry.item));
    } catch (error) {
      for (const entry of batch) entry.reject(error);
      return;
    } finally {
      inFlight -= 1;
      // What gathered while all batches were out goes now.
      if (!scheduled) flush();
    }
    batch.forEach((entry, index) => {
      if (index < results.length) entry.resolve(results[index] as TResult);
      else entry.reject(new Error(`batch answered ${results.length} results for ${batch.length}`));
    });
  }

  function flush(): void {
    scheduled = false;
    while (waiting.length > 0 && inFlight < maxInFlight) void sendBatch(takeBatch());
  }

  return (item) =>
    new Promise<TResult>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (scheduled) return;
      scheduled = true;
      if (options.windowMs > 0) setTimeout(flush, options.windowMs);
      else setImmediate(flush);
    });
}
