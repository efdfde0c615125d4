import type { ServerResponse } from 'node:http';
import type { Post } from '@cadence/shared/schemas/schedule';
import { whenClosed } from '../../lib/when-closed.ts';

/**
 * Live post updates (and new notifications) over Server-Sent Events, by polling: each open stream asks the database every
 * second for the user's posts changed in the last few seconds and sends those whose JSON differs
 * from what it last sent. Chosen over in-process events or LISTEN/NOTIFY because status changes
 * are written by whichever process runs the publisher (the HTTP process with PGlite, separate
 * `npm run worker` processes with PostgreSQL): polling sees them all the same way, on both
 * databases, with one indexed query (posts_user_updated) per open tab per second.
 */
export interface PostStreamOptions {
  changedSince(since: Date): Promise<Post[]>;
  /**
   * The user's notifications created since then, sent as `notification` events on the same
   * stream (the bell in the header follows it), each once.
   */
  notificationsSince?(since: Date): Promise<Array<{ id: string }>>;
  pollMs?: number;
  heartbeatMs?: number;
  /** Re-read this far back: a transaction may commit after a later one (updated_at order ≠ commit order). */
  overlapMs?: number;
  onError?(error: unknown): void;
  /**
   * True once the session that opened the stream is over (signed out, revoked, expired). Asked
   * every `sessionCheckMs`: a stream must not keep a signed-out browser (or whoever holds the
   * tab) informed, and sign-out may happen in another process or tab.
   */
  sessionEnded?(): Promise<boolean>;
  sessionCheckMs?: number;
}

export interface PostStream {
  close(): void;
}

/** Starts streaming to an already hijacked response; stops when the client goes or on close(). */
export function streamPostEvents(response: ServerResponse, options: PostStreamOptions): PostStream {
  const pollMs = options.pollMs ?? 1_000;
  const heartbeatMs = options.heartbeatMs ?? 25_000;
  const overlapMs = options.overlapMs ?? 5_000;
  const sessionCheckMs = options.sessionCheckMs ?? 5_000;
  let sessionCheckedAt = Date.now();
  let sent = new Map<string, string>();
  let sentNotifications = new Set<string>();
  let since = new Date(Date.now() - overlapMs);
  let closed = false;
  let pollTimer: NodeJS.Timeout | undefined;
  // Set once the stream starts; close() may run before (a client already gone).
  let heartbeat: NodeJS.Timeout | undefined = undefined;

  function close(): void {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    clearTimeout(pollTimer);
    response.end();
  }

  // A client gone before the stream started gets nothing: no timers, no polling.
  whenClosed(response, close);
  if (closed) return { close };

  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  response.write(': connected\n\n');

  heartbeat = setInterval(() => {
    if (!closed) response.write(': heartbeat\n\n');
  }, heartbeatMs);

  async function poll(): Promise<void> {
    const startedAt = Date.now();
    try {
      if (options.sessionEnded && startedAt - sessionCheckedAt >= sessionCheckMs) {
        sessionCheckedAt = startedAt;
        if (await options.sessionEnded()) {
          // Tells the page why (EventSource would otherwise reconnect and meet a 401).
          if (!closed) response.write('event: signed-out\ndata: {}\n\n');
          close();
          return;
        }
      }
      const posts = await options.changedSince(since);
      if (closed) return;
      const next = new Map<string, string>();
      for (const post of posts) {
        const json = JSON.stringify(post);
        next.set(post.id, json);
        if (sent.get(post.id) !== json) response.write(`event: post\ndata: ${json}\n\n`);
      }
      sent = next;
      if (options.notificationsSince) {
        const notifications = await options.notificationsSince(since);
        if (closed) return;
        const seen = new Set<string>();
        for (const notification of notifications) {
          seen.add(notification.id);
          if (!sentNotifications.has(notification.id))
            response.write(`event: notification\ndata: ${JSON.stringify(notification)}\n\n`);
        }
        sentNotifications = seen;
      }
      since = new Date(startedAt - overlapMs);
    } catch (error) {
      options.onError?.(error);
    }
    if (!closed) pollTimer = setTimeout(() => void poll(), pollMs);
  }

  void poll();
  return { close };
}
