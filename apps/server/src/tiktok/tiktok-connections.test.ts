// The client keeps at most TIKTOK_CONNECTIONS_PER_ORIGIN connections to one TikTok origin: a burst
// of calls (the publisher's video inits at a due instant) waits for a connection instead of each
// opening its own, and the connections are kept for the next calls (decision 048).
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollUntil } from './sandbox-test-kit.ts';
import { createTikTokClient } from './tiktok-client.ts';
import { TIKTOK_CONNECTIONS_PER_ORIGIN } from './tiktok-http.ts';

const creatorInfo = JSON.stringify({
  data: {
    creator_username: 'creator',
    creator_nickname: 'Creator',
    privacy_level_options: ['SELF_ONLY'],
    comment_disabled: false,
    duet_disabled: false,
    stitch_disabled: false,
    max_video_post_duration_sec: 600,
  },
  error: { code: 'ok', message: '', log_id: 'l' },
});

/** Holds every answer until the test lets them go, and counts the connections opened to it. */
const held: ServerResponse[] = [];
let connections = 0;
const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => held.push(response));
});
server.on('connection', () => (connections += 1));
let base = '';

beforeAll(async () => {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
});

function answerHeld() {
  for (const response of held.splice(0)) {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(creatorInfo);
  }
}

/** Until `count` calls are held by the server. */
function heldCalls(count: number) {
  return pollUntil(
    async () => held.length,
    (length) => length === count,
    { intervalMs: 1 },
  );
}

describe('TikTok client: connections to one origin', () => {
  it('opens at most TIKTOK_CONNECTIONS_PER_ORIGIN; the calls beyond wait for one, then reuse them', async () => {
    const client = createTikTokClient({
      clientKey: 'key',
      clientSecret: 'secret',
      authBase: base,
      apiBase: base,
    });
    const burst = TIKTOK_CONNECTIONS_PER_ORIGIN + 40;
    const calls = Array.from({ length: burst }, () => client.queryCreatorInfo('token'));
    // Every connection carries a call; the 40 others wait, none on a connection of its own.
    await heldCalls(TIKTOK_CONNECTIONS_PER_ORIGIN);
    expect(connections).toBe(TIKTOK_CONNECTIONS_PER_ORIGIN);
    // Answered, the connections take the waiting calls.
    answerHeld();
    await heldCalls(40);
    answerHeld();
    const answers = await Promise.all(calls);
    expect(answers.every((answer) => answer.creatorUsername === 'creator')).toBe(true);
    expect(connections).toBe(TIKTOK_CONNECTIONS_PER_ORIGIN);

    // The next calls go on the connections kept open.
    const next = Array.from({ length: 10 }, () => client.queryCreatorInfo('token'));
    await heldCalls(10);
    answerHeld();
    await Promise.all(next);
    expect(connections).toBe(TIKTOK_CONNECTIONS_PER_ORIGIN);
  });
});
