/**
 * Lighthouse benchmark: the built app (compiled server, PGlite) audited by Lighthouse's default
 * mobile preset (a mid-range phone, simulated slow 4G) in Debian's Chromium, on /auth signed out
 * and on /tiktok and /scheduler signed in (a user made through the API; its session cookie goes
 * with every request). Prints the performance, accessibility and best-practices scores, FCP, LCP,
 * TBT and CLS, and every audit that cost a point. Targets (issue 15): performance ≥ 95,
 * accessibility 100, best practices 100. Simulated throttling computes the timings from a trace,
 * so a busy machine still inflates them: the load average is printed with them.
 * Needs `npm run build`. `npx tsx bench/lighthouse.ts [--runs 1] [--pages /tiktok,/scheduler]
 * [--out dir]` (the median run per page; `--pages`: only those; `--out`: each report's JSON, to open
 * in the Lighthouse viewer).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import lighthouse from 'lighthouse';
import { launchBrowser } from '../e2e/support/browser.ts';
import { freePort, startServer, type RunningServer } from '../e2e/support/server.ts';

const categories = ['performance', 'accessibility', 'best-practices'] as const;
const targets: Record<(typeof categories)[number], number> = {
  performance: 95,
  accessibility: 100,
  'best-practices': 100,
};
const metrics = [
  ['FCP', 'first-contentful-paint'],
  ['LCP', 'largest-contentful-paint'],
  ['TBT', 'total-blocking-time'],
  ['CLS', 'cumulative-layout-shift'],
] as const;

interface PageResult {
  path: string;
  lighthouseVersion: string;
  scores: Record<(typeof categories)[number], number>;
  metrics: Record<(typeof metrics)[number][0], number>;
  /** Audits below full marks in the accessibility and best-practices categories, and why. */
  failed: string[];
}

/** A new user's session cookie, from the API's own sign-up (as the form sends it). */
async function sessionCookie(server: RunningServer): Promise<string> {
  const id = Math.random().toString(16).slice(2, 10);
  const response = await fetch(`${server.url}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url },
    body: JSON.stringify({
      name: `Lighthouse ${id}`,
      email: `lighthouse-${id}@example.com`,
      password: `pass-${id}`,
      preferredLanguage: 'fr',
      timeZone: 'Europe/Paris',
    }),
  });
  if (!response.ok)
    throw new Error(`sign-up answered ${response.status}: ${await response.text()}`);
  const cookies = response.headers.getSetCookie().map((cookie) => cookie.split(';')[0]);
  if (cookies.length === 0) throw new Error('sign-up set no cookie');
  return cookies.join('; ');
}

/**
 * Runtime errors of Lighthouse's own trace, not of the page: on a loaded machine Chromium's trace
 * sometimes lacks the navigation's start (NO_NAVSTART), most attempts on a busy machine.
 * Such a run is made again, up to `TRACE_ATTEMPTS` times, and the retries are printed.
 */
const traceProblems = new Set(['NO_NAVSTART', 'NO_TRACING_STARTED', 'NO_FCP', 'NO_LCP']);
const TRACE_ATTEMPTS = 3;

class TraceProblem extends Error {
  override name = 'TraceProblem';
}

async function audit(
  url: string,
  port: number,
  cookie: string | null,
  out: string | undefined,
): Promise<PageResult> {
  const result = await lighthouse(url, {
    port,
    logLevel: 'error',
    output: 'json',
    onlyCategories: [...categories],
    ...(process.env.LH_CPU !== undefined && {
      throttling: {
        rttMs: 150,
        throughputKbps: 1638.4,
        cpuSlowdownMultiplier: Number(process.env.LH_CPU),
        requestLatencyMs: 562.5,
        downloadThroughputKbps: 1474.56,
        uploadThroughputKbps: 675,
      },
    }),
    ...(cookie !== null && { extraHeaders: { Cookie: cookie } }),
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  if (out !== undefined) {
    mkdirSync(out, { recursive: true });
    const name = `${new URL(url).pathname.slice(1).replaceAll('/', '-')}-${Date.now()}.json`;
    writeFileSync(`${out}/${name}`, JSON.stringify(lhr));
  }
  if (lhr.runtimeError) {
    const message = `${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`;
    throw traceProblems.has(lhr.runtimeError.code) ? new TraceProblem(message) : new Error(message);
  }
  const score = (id: string) => Math.round(100 * (lhr.categories[id]?.score ?? 0));
  const failed = ['accessibility', 'best-practices'].flatMap((id) =>
    (lhr.categories[id]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0)
      .map((ref) => lhr.audits[ref.id])
      .filter((entry) => entry !== undefined && entry.score !== null && entry.score < 1)
      .map((entry) => `${id}: ${entry!.id} (${entry!.title})`),
  );
  return {
    path: new URL(url).pathname,
    lighthouseVersion: lhr.lighthouseVersion,
    scores: {
      performance: score('performance'),
      accessibility: score('accessibility'),
      'best-practices': score('best-practices'),
    },
    metrics: {
      FCP: lhr.audits['first-contentful-paint']?.numericValue ?? NaN,
      LCP: lhr.audits['largest-contentful-paint']?.numericValue ?? NaN,
      TBT: lhr.audits['total-blocking-time']?.numericValue ?? NaN,
      CLS: lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN,
    },
    failed,
  };
}

const median = (results: PageResult[]) =>
  [...results].sort((a, b) => a.scores.performance - b.scores.performance)[
    Math.floor(results.length / 2)
  ]!;

export async function main(argv: string[] = process.argv.slice(2)): Promise<PageResult[]> {
  const { values } = parseArgs({
    args: argv,
    strict: false,
    options: { runs: { type: 'string' }, out: { type: 'string' }, pages: { type: 'string' } },
  });
  const runs = Number(values.runs ?? 1);
  const out = typeof values.out === 'string' ? values.out : undefined;
  const only = typeof values.pages === 'string' ? values.pages.split(',') : undefined;
  const server = await startServer();
  const port = await freePort();
  const browser = await launchBrowser([`--remote-debugging-port=${port}`]);
  const results: PageResult[] = [];
  try {
    const cookie = await sessionCookie(server);
    for (const [path, pageCookie] of [
      ['/auth', null],
      ['/tiktok', cookie],
      ['/scheduler', cookie],
    ] as const) {
      if (only !== undefined && !only.includes(path)) continue;
      const samples: PageResult[] = [];
      for (let run = 0; run < runs; run += 1) {
        for (let attempt = 1; ; attempt += 1) {
          try {
            samples.push(await audit(`${server.url}${path}`, port, pageCookie, out));
            break;
          } catch (error) {
            if (!(error instanceof TraceProblem) || attempt >= TRACE_ATTEMPTS) throw error;
            console.warn(`Run made again (attempt ${attempt + 1}): ${error.message}`);
          }
        }
      }
      results.push(median(samples));
    }
  } finally {
    await browser.close();
    await server.stop();
  }

  console.log(
    `Lighthouse ${results[0]?.lighthouseVersion ?? '?'}, mobile preset (simulated slow 4G, 4× CPU slowdown), Chromium; ${runs} run(s) per page, median`,
  );
  console.log(
    `  load average ${loadavg()
      .map((load) => load.toFixed(1))
      .join(' ')} on this machine`,
  );
  for (const result of results) {
    const scores = categories
      .map((id) => `${id} ${String(result.scores[id]).padStart(3)}/${targets[id]}`)
      .join('  ');
    const timings = metrics
      .map(([name]) =>
        name === 'CLS'
          ? `CLS ${result.metrics.CLS.toFixed(3)}`
          : `${name} ${(result.metrics[name] / 1000).toFixed(2)} s`,
      )
      .join('  ');
    console.log(`  ${result.path.padEnd(11)} ${scores}  | ${timings}`);
    for (const failure of result.failed) console.log(`      ✗ ${failure}`);
  }
  const misses = results.flatMap((result) =>
    categories.filter((id) => result.scores[id] < targets[id]).map((id) => `${result.path} ${id}`),
  );
  console.log(misses.length === 0 ? '  every target met' : `  below target: ${misses.join(', ')}`);
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
