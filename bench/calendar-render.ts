/**
 * Calendar render benchmark: a month holding 1,000 posts, rendered by the built app in Chromium
 * against the real server (compiled, on a PostgreSQL database of its own, posts seeded by SQL).
 * Each run clicks 'Mois précédent' from an empty month to the full one (both already fetched, so
 * only rendering is timed) and measures with the Performance API, from the click to the first
 * frame after the new month is in the DOM: performance.measure (wall time of the switch, which
 * includes waiting for frames) and the sum of the long tasks (> 50 ms) inside it; and the main
 * thread's own busy time over the same span (DevTools' Performance.getMetrics TaskDuration:
 * script, style, layout, paint). Baseline, measured in the same run the same way: switching to an
 * empty month. Budget: 200 ms of main-thread time for the full month.
 * Needs `npm run build`. `npx tsx bench/calendar-render.ts [--posts 1000] [--runs 10] [--profile]`
 * (`--profile`: also the page's CPU profile during the runs, top functions by samples).
 */
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { addDaysToDate, localDateOf, zonedDateTimeToUtc } from '@cadence/shared/schedule/planner';
import type { CDPSession, Page } from 'playwright-core';
import { z } from 'zod';
import { signUp } from '../e2e/support/actions.ts';
import { launchBrowser, newContext } from '../e2e/support/browser.ts';
import { openSeedDatabase, seedCalendar, type CalendarSeed } from '../e2e/support/calendar-seed.ts';
import { startServer } from '../e2e/support/server.ts';

const timeZone = 'Europe/Paris';
const BUDGET_MS = 200;

const sampleSchema = z.object({ elapsed: z.number(), longTasks: z.number(), chips: z.number() });
type Sample = z.infer<typeof sampleSchema> & { mainThread: number };
const metricsSchema = z.object({
  metrics: z.array(z.object({ name: z.string(), value: z.number() })),
});

// Runs in the page (a string: this package's TypeScript has no DOM types). The router may render
// in a transition (in slices), so it waits for the month's cell, then for the frame that shows it.
const switchMonthScript = `async ({ label, date }) => {
  const button = document.querySelector('button[aria-label="' + label + '"]');
  if (!button) throw new Error('no button ' + label);
  let longTasks = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longTasks += entry.duration;
  });
  observer.observe({ type: 'longtask' });
  const name = 'calendar:' + date + ':' + Math.random();
  performance.mark(name + ':start');
  button.click();
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  while (!document.querySelector('[data-testid="calendar"] div[data-date="' + date + '"]')) {
    await frame();
  }
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  performance.mark(name + ':end');
  const measure = performance.measure(name, name + ':start', name + ':end');
  // Long tasks are reported asynchronously: take the ones already queued.
  for (const entry of observer.takeRecords()) longTasks += entry.duration;
  observer.disconnect();
  return {
    elapsed: measure.duration,
    longTasks,
    chips: document.querySelectorAll('[data-testid="calendar"] [data-post-id]').length,
  };
}`;

/** The renderer's main-thread busy time so far, in ms (DevTools protocol). */
async function taskDuration(cdp: CDPSession): Promise<number> {
  const { metrics } = metricsSchema.parse(await cdp.send('Performance.getMetrics'));
  return (metrics.find((metric) => metric.name === 'TaskDuration')?.value ?? NaN) * 1000;
}

/** Clicks the button named `label` and times it until `date`'s cell is drawn. */
async function switchMonth(
  page: Page,
  cdp: CDPSession,
  label: string,
  date: string,
): Promise<Sample> {
  const before = await taskDuration(cdp);
  const sample = sampleSchema.parse(
    await page.evaluate(`(${switchMonthScript})(${JSON.stringify({ label, date })})`),
  );
  // The evaluate round trip itself costs the page well under a millisecond.
  return { ...sample, mainThread: (await taskDuration(cdp)) - before };
}

const profileSchema = z.object({
  profile: z.object({
    nodes: z.array(
      z.object({
        hitCount: z.number().optional(),
        callFrame: z.object({ functionName: z.string(), url: z.string(), lineNumber: z.number() }),
      }),
    ),
  }),
});

/** `--profile`: the 20 functions the page spent most samples in, by script (for optimising). */
function printProfile({ profile }: z.infer<typeof profileSchema>): void {
  const hits = new Map<string, number>();
  for (const { hitCount = 0, callFrame } of profile.nodes) {
    const script = callFrame.url.split('/').at(-1) || '(native)';
    const key = `${callFrame.functionName || '(anonymous)'} ${script}:${callFrame.lineNumber}`;
    hits.set(key, (hits.get(key) ?? 0) + hitCount);
  }
  const total = [...hits.values()].reduce((sum, count) => sum + count, 0);
  for (const [key, count] of [...hits].sort((a, b) => b[1] - a[1]).slice(0, 20)) {
    console.log(`  ${((100 * count) / total).toFixed(1).padStart(5)} %  ${key}`);
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};
const ms = (value: number) => `${value.toFixed(1)} ms`.padStart(9);

export async function main(argv: string[] = process.argv.slice(2)): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    strict: false,
    options: {
      posts: { type: 'string' },
      runs: { type: 'string' },
      profile: { type: 'boolean', default: false },
    },
  });
  const postCount = Number(values.posts ?? 1000);
  const runs = Number(values.runs ?? 10);
  const today = localDateOf(new Date(), timeZone);
  const monthStart = (offset: number) =>
    `${addDaysToDate(`${today.slice(0, 7)}-15`, 31 * offset).slice(0, 7)}-01`;
  const full = monthStart(1);
  const empty = monthStart(2);
  const after = monthStart(3);
  const days = Number(addDaysToDate(empty, -1).slice(8));
  const posts: CalendarSeed[] = Array.from({ length: postCount }, (_, index) => {
    const date = addDaysToDate(full, index % days);
    const minutes = 8 * 60 + ((index * 37) % (14 * 60));
    const time = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
    return {
      account: index % 3 === 0 ? 'bench.voyages' : 'bench.cuisine',
      dueAt: zonedDateTimeToUtc(date, time, timeZone),
      title: `Bench post #${index}`,
    };
  });

  const { database, env } = await openSeedDatabase();
  const server = await startServer(env);
  const browser = await launchBrowser();
  try {
    const { page } = await newContext(browser, server.url, {
      viewport: { width: 1280, height: 900 },
      timezoneId: timeZone,
    });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const user = await signUp(page);
    await seedCalendar(server, database, user.email, posts);
    // Every month fetched once (and kept 30 s): the runs time rendering only.
    await page.goto(`/scheduler/calendar?view=month&date=${after}`);
    await page.locator('[data-testid="calendar"][data-loaded="true"]').waitFor();
    await switchMonth(page, cdp, 'Mois précédent', addDaysToDate(empty, 14));
    await page.locator('[data-testid="calendar"][data-loaded="true"]').waitFor();
    await switchMonth(page, cdp, 'Mois précédent', addDaysToDate(full, 14));
    await page.locator('[data-testid="calendar"][data-loaded="true"]').waitFor();

    const fullSamples: Sample[] = [];
    const emptySamples: Sample[] = [];
    if (values.profile === true) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.start');
    }
    for (let run = 0; run < runs; run += 1) {
      await switchMonth(page, cdp, 'Mois suivant', addDaysToDate(empty, 14));
      await switchMonth(page, cdp, 'Mois suivant', addDaysToDate(after, 14));
      emptySamples.push(await switchMonth(page, cdp, 'Mois précédent', addDaysToDate(empty, 14)));
      fullSamples.push(await switchMonth(page, cdp, 'Mois précédent', addDaysToDate(full, 14)));
    }
    if (values.profile === true) printProfile(profileSchema.parse(await cdp.send('Profiler.stop')));
    const fullMedian = median(fullSamples.map((sample) => sample.mainThread));
    const emptyMedian = median(emptySamples.map((sample) => sample.mainThread));
    console.log(
      `Calendar month render, Chromium 1280 px: ${postCount} posts in the full month (${fullSamples[0]?.chips ?? 0} chips drawn), ${runs} runs`,
    );
    // Task durations are wall time on the main thread: a busy machine inflates every figure.
    console.log(
      `  load average ${loadavg()
        .map((load) => load.toFixed(1))
        .join(' ')} on this machine`,
    );
    for (const [name, samples] of [
      ['full month', fullSamples],
      ['empty month (baseline)', emptySamples],
    ] as const) {
      const figures = (pick: (sample: Sample) => number) => {
        const values = samples.map(pick);
        return `median ${ms(median(values))} max ${ms(Math.max(...values))}`;
      };
      console.log(
        `  ${name.padEnd(24)} main thread ${figures((sample) => sample.mainThread)}` +
          `  | measure ${figures((sample) => sample.elapsed)}` +
          `  | long tasks ${figures((sample) => sample.longTasks)}`,
      );
    }
    console.log(
      `  ratio full / empty (main thread, median) ${(fullMedian / Math.max(0.1, emptyMedian)).toFixed(2)}` +
        `  budget ${BUDGET_MS} ms of main thread: ${fullMedian < BUDGET_MS ? 'met' : 'MISSED'} (median)`,
    );
  } finally {
    await browser.close();
    await server.stop();
    await database.close();
  }
}

const entry = process.argv[1];
if (entry !== undefined && import.meta.url === pathToFileURL(entry).href) {
  await main();
  process.exit(0);
}
