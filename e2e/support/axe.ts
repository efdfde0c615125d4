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
 * Runs axe-core (WCAG 2.1 A and AA rules) on the page as it is now and returns what it breaks.
 * The script is evaluated through the DevTools protocol, which the page's CSP does not govern, so
 * the app is checked with its real headers.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource);
  const options = {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
  };
  const results = await page.evaluate<AxeResults>(`axe.run(document, ${JSON.stringify(options)})`);
  return results.violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact ?? null,
    targets: violation.nodes.map((node) => node.target.join(' ')),
  }));
}
