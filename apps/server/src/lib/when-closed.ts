import type { ServerResponse } from 'node:http';

/**
 * Runs `onClose` once the response's connection is gone: at once when it already is, else on its
 * 'close' event. A route that awaits (the session, a query) before listening would otherwise miss
 * the event of a client that left meanwhile, and keep what it holds for that client forever.
 */
export function whenClosed(response: ServerResponse, onClose: () => void): void {
  if (response.destroyed) onClose();
  else response.once('close', onClose);
}
