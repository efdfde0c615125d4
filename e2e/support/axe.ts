import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

/** One rule a page breaks, and where: what a failing assertion shows. */
export interface AxeViolation {
  rule: string;
  impact: string | null;
  targets: string[];
}

/**
 * Runs axe-core (WCAG 2.1 A and AA rules) on the page as it is now (or the part `selector`
 * matches) and returns what it breaks.
 * The script is evaluated through the DevTools protocol, which the page's CSP does not govern, so
 * the app is checked with its real headers.
 */
export async function axeViolations(page: Page, selector?: string): Promise<AxeViolation[]> {
  // Colours judged mid-transition are neither the old nor the new ones (a button fading in as
  // uploads end measured as low contrast in CI): wait for the page's finite CSS transitions and
  // animations to end first (spinners loop for ever and are left out), 5 s at most.
  await page.evaluate(`Promise.race([
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
    new Promise((resolve) => setTimeout(resolve, 5000)),
  ])`);
  await page.evaluate(axeSource);
  const options = {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
  };
  // `selector`: only that part of the page, e.g. an open dialog (the page behind its dimming
  // overlay would fail colour contrast for the overlay's sake).
  const context = selector === undefined ? 'document' : JSON.stringify(selector);
  const results = await page.evaluate<AxeResults>(
    `axe.run(${context}, ${JSON.stringify(options)})`,
  );
  return results.violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact ?? null,
    targets: violation.nodes.map((node) => node.target.join(' ')),
  }));
}
