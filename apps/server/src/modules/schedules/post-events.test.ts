import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { whenClosed } from '../../lib/when-closed.ts';
import { streamPostEvents } from './post-events.ts';

/**
 * A real HTTP exchange whose client has left before the handler goes on: the handler gets the
 * response once the client's socket has closed, as a route does when the tab goes while it awaits
 * the session.
 */
async function responseOfAClientThatLeft(): Promise<{
  response: ServerResponse;
  done: () => Promise<void>;
}> {
  let handed: (response: ServerResponse) => void = () => undefined;
  const handedOver = new Promise<ServerResponse>((resolve) => (handed = resolve));
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.socket.once('close', () => handed(response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const client = connect(port, '127.0.0.1', () => {
    client.write('GET /api/posts/events HTTP/1.1\r\nHost: cadence\r\n\r\n');
  });
  server.once('request', () => client.destroy());
  const response = await handedOver;
  return {
    response,
    done: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('live post stream of a client that left before it started', () => {
  let done: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await done?.();
    done = undefined;
  });

  it('runs the close callback at once, since the close event has already been', async () => {
    const exchange = await responseOfAClientThatLeft();
    done = exchange.done;
    const onClose = vi.fn();
    whenClosed(exchange.response, onClose);
    expect(onClose).toHaveBeenCalledOnce();
  });

  it('never polls the database for it (no stream left running for nobody)', async () => {
    const exchange = await responseOfAClientThatLeft();
    done = exchange.done;
    const changedSince = vi.fn(() => Promise.resolve([]));
    const setTimeoutSpy = vi.spyOn(globalThis, 'setTimeout');
    const setIntervalSpy = vi.spyOn(globalThis, 'setInterval');
    try {
      streamPostEvents(exchange.response, { changedSince, pollMs: 10, heartbeatMs: 10 });
      // The first poll starts synchronously: a stream that started would have asked already.
      expect(changedSince).not.toHaveBeenCalled();
      expect(setTimeoutSpy).not.toHaveBeenCalled();
      expect(setIntervalSpy).not.toHaveBeenCalled();
    } finally {
      setTimeoutSpy.mockRestore();
      setIntervalSpy.mockRestore();
    }
  });
});
