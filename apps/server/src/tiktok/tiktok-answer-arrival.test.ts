// `onAnswer` (RequestOptions): the publisher stamps an init's pacing slot with the moment TikTok's
// answer started to arrive (decision 039), so the hook must fire on the status line and headers,
// before the body is read, whatever the answer says, and never for a request with no answer.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollUntil } from './sandbox-test-kit.ts';
import { createTikTokClient } from './tiktok-client.ts';
import { TikTokApiError } from './tiktok-error.ts';

/**
 * Answers each request with its headers at once and its body only when the test says. The access
 * token says how: `drop` closes the connection unanswered, `429` answers rate_limit_exceeded.
 */
function headersFirstServer() {
  const held: { response: ServerResponse; status: number }[] = [];
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const token = request.headers.authorization?.replace(/^Bearer /, '');
      const status = token === '429' ? 429 : 200;
      if (token === 'drop') {
        request.socket.destroy();
        return;
      }
      response.writeHead(status, { 'content-type': 'application/json' });
      response.flushHeaders();
      held.push({ response, status });
    });
  });
  const releaseBody = () => {
    for (const { response, status } of held.splice(0)) {
      response.end(
        JSON.stringify(
          status === 200
            ? {
                data: { publish_id: 'v_pub_file~v2-1.1', upload_url: 'http://127.0.0.1/u' },
                error: { code: 'ok', message: '', log_id: 'l' },
              }
            : { data: {}, error: { code: 'rate_limit_exceeded', message: 'slow', log_id: 'l' } },
        ),
      );
    }
  };
  return { server, held, releaseBody };
}

const kit = headersFirstServer();
let base = '';

beforeAll(async () => {
  await new Promise<void>((done) => kit.server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(kit.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  kit.server.closeAllConnections();
  await new Promise((done) => kit.server.close(done));
});

const client = () =>
  createTikTokClient({ clientKey: 'key', clientSecret: 'secret', authBase: base, apiBase: base });

const plan = { videoSize: 1_000, chunkSize: 1_000, totalChunkCount: 1 };
const postInfo = { title: 'Arrival', privacyLevel: 'SELF_ONLY' as const };

/** Until the server has answered the headers of `count` requests. */
function untilHeld(count: number) {
  return pollUntil(
    async () => kit.held.length,
    (length) => length >= count,
    { timeoutMs: 5_000, intervalMs: 1 },
  );
}

describe('TikTok client: when an answer arrives', () => {
  for (const status of [200, 429] as const) {
    it(`calls onAnswer once the headers of a ${status} arrive, before the body`, async () => {
      const arrivals: number[] = [];
      const call = client().initDirectPost(
        String(status),
        { ...plan, postInfo },
        { onAnswer: () => arrivals.push(performance.now()) },
      );
      const settled = call.then(
        (value) => ({ value, at: performance.now() }),
        (error: unknown) => ({ error, at: performance.now() }),
      );
      await untilHeld(1);
      // The body is still held: the call has not ended, and the arrival is already known.
      await pollUntil(
        async () => arrivals.length,
        (length) => length > 0,
        { timeoutMs: 5_000, intervalMs: 1 },
      );
      expect(arrivals).toHaveLength(1);
      kit.releaseBody();
      const outcome = await settled;
      expect(arrivals[0]).toBeLessThan(outcome.at);
      if (status === 200)
        expect(outcome).toMatchObject({ value: { publishId: 'v_pub_file~v2-1.1' } });
      else expect((outcome as { error: unknown }).error).toBeInstanceOf(TikTokApiError);
      expect(arrivals).toHaveLength(1);
    });
  }

  it('never calls onAnswer for a request that got no answer', async () => {
    let called = false;
    const error = await client()
      .initDirectPost('drop', { ...plan, postInfo }, { onAnswer: () => (called = true) })
      .catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(TikTokApiError);
    expect((error as TikTokApiError).httpStatus).toBeNull();
    expect(called).toBe(false);
  });
});
