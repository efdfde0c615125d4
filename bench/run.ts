/**
 * `npm run bench`: runs every benchmark's main() in sequence, each printing its figures and the
 * ratio to its baseline. `npm run bench -- --only <name> [--quick]` runs one (names below);
 * other flags go to the benchmarks that accept them (calendar-render, memes-link, planning,
 * lighthouse, publish-lateness, upload-throughput).
 */
import { parseArgs } from 'node:util';

interface Bench {
  name: string;
  /** Whether it takes this runner's other flags (--quick…); the others parse strictly, so get none. */
  passFlags: boolean;
  run: (argv: string[]) => Promise<unknown>;
}

const benches: Bench[] = [
  {
    name: 'story-render',
    passFlags: false,
    run: async (argv) => (await import('./story-render.ts')).main(argv),
  },
  {
    name: 'memes',
    passFlags: false,
    run: async (argv) => (await import('./memes/evaluate.ts')).main(argv),
  },
  {
    name: 'memes-link',
    passFlags: true,
    run: async (argv) => (await import('./memes/link-to-download.ts')).main(argv),
  },
  {
    name: 'publish-lateness',
    passFlags: true,
    run: async (argv) => (await import('./publish-lateness.ts')).main(argv),
  },
  {
    name: 'planning',
    passFlags: true,
    run: async (argv) => (await import('./planning/lists.ts')).main(argv),
  },
  {
    name: 'calendar-render',
    passFlags: true,
    run: async (argv) => (await import('./calendar-render.ts')).main(argv),
  },
  {
    name: 'analytics-best-times',
    passFlags: false,
    run: async (argv) => (await import('./analytics/best-times.ts')).main(argv),
  },
  {
    name: 'analytics-sync',
    passFlags: true,
    run: async (argv) => (await import('./analytics/sync-cost.ts')).main(argv),
  },
  {
    name: 'data-export-memory',
    passFlags: true,
    run: async (argv) => (await import('./data-export-memory.ts')).main(argv),
  },
  {
    name: 'lighthouse',
    passFlags: true,
    run: async (argv) => (await import('./lighthouse.ts')).main(argv),
  },
  {
    name: 'upload-throughput',
    passFlags: true,
    run: async (argv) => (await import('./upload-throughput.ts')).main(argv),
  },
];

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const { values } = parseArgs({
    args: argv,
    strict: false,
    allowPositionals: true,
    options: { only: { type: 'string' } },
  });
  const only = typeof values.only === 'string' ? values.only : undefined;
  const selected = benches.filter((bench) => only === undefined || bench.name === only);
  if (selected.length === 0) {
    console.error(
      `unknown benchmark '${only}'; known: ${benches.map((bench) => bench.name).join(', ')}`,
    );
    process.exit(2);
  }
  // Each benchmark gets the flags except --only (and its value).
  const rest = argv.filter(
    (arg, index) => arg !== '--only' && argv[index - 1] !== '--only' && !arg.startsWith('--only='),
  );
  let failed = false;
  for (const bench of selected) {
    console.log(`\n=== ${bench.name} ===`);
    try {
      await bench.run(bench.passFlags ? rest : []);
    } catch (error) {
      failed = true;
      console.error(`${bench.name} failed:`, error);
    }
  }
  process.exit(failed ? 1 : 0);
}

await main();
