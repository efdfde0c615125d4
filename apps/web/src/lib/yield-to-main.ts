/**
 * Ends the current task and goes on in a new one, so that a paint or an input waiting in between
 * is served first: a page's start-up steps (evaluating a chunk, reading the strings, the first
 * render) each stay a short task instead of adding up to one long one, which is what total
 * blocking time counts (docs/decisions/037-first-load.md). `scheduler.yield()` where
 * the browser has it (Chromium 129+: the continuation goes ahead of other queued tasks), a
 * zero-delay timer elsewhere.
 */
export function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
