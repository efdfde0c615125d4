import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { launchBrowser, newContext } from './browser.ts';
import { startServer, type RunningServer } from './server.ts';

export type PageOptions = NonNullable<Parameters<typeof newContext>[2]>;

export interface BrowserSuite {
  /** The file's server; only valid once its `beforeAll` has run (i.e. inside tests and hooks). */
  server(): RunningServer;
  /** A page in a fresh context, closed after the test, whose console errors fail the test. */
  openPage(options?: PageOptions): Promise<Page>;
}

/**
 * Registers the hooks every browser file needs: one real server and one Chromium for the file,
 * contexts closed after each test, and a failure on any console error a test did not declare.
 * The environment may be a function when it depends on something an earlier `beforeAll` made.
 */
export function useBrowserSuite(
  serverEnv: NodeJS.ProcessEnv | (() => NodeJS.ProcessEnv) = {},
): BrowserSuite {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  const openContexts: BrowserContext[] = [];
  let consoleErrors: string[][] = [];

  beforeAll(async () => {
    const env = typeof serverEnv === 'function' ? serverEnv() : serverEnv;
    [server, browser] = await Promise.all([startServer(env), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  afterEach(async () => {
    await Promise.all(openContexts.splice(0).map((context) => context.close()));
    const errors = consoleErrors.flat();
    consoleErrors = [];
    expect(errors, 'unexpected console errors').toEqual([]);
  });

  function running(): { server: RunningServer; browser: Browser } {
    if (!server || !browser) throw new Error('the browser suite has not started yet');
    return { server, browser };
  }

  return {
    server: () => running().server,
    async openPage(options = {}) {
      const started = running();
      const { context, page, errors } = await newContext(
        started.browser,
        started.server.url,
        options,
      );
      openContexts.push(context);
      consoleErrors.push(errors);
      return page;
    },
  };
}
