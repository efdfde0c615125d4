import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Debian's Chromium, headless; `extraArgs`: more flags (bench/lighthouse.ts opens a debugging port). */
export function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      '--disable-quic',
      ...extraArgs,
    ],
  });
}

/**
 * A fresh context (own cookies and storage) whose pages fail the test on any console error or
 * uncaught page error — except the ones a test declares expected (e.g. a deliberate 401).
 */
export async function newContext(
  browser: Browser,
  baseURL: string,
  options: {
    viewport?: { width: number; height: number };
    allowConsoleErrors?: RegExp[];
    /** The browser's IANA zone (default: the machine's); sign-up saves it as the user's. */
    timezoneId?: string;
  } = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({
    baseURL,
    viewport: options.viewport ?? { width: 1280, height: 800 },
    ...(options.timezoneId !== undefined && { timezoneId: options.timezoneId }),
  });
  const page = await context.newPage();
  const errors: string[] = [];
  const allowed = options.allowConsoleErrors ?? [];
  // Failed fetches (401 from /api/me when signed out, 4xx from validation) are expected answers.
  const expectedNetwork = /Failed to load resource: the server responded with a status of 4\d\d/;
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    if (expectedNetwork.test(text) || allowed.some((pattern) => pattern.test(text))) return;
    errors.push(text);
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, errors };
}
