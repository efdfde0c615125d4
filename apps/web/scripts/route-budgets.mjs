// After `vite build`: prints what each route's first load downloads (JavaScript and CSS, as the
// brotli copies the server sends) and fails the build when a route outgrows its budget, or when a
// lazily loaded screen has no budget yet. Reads the module manifest Vite writes to
// dist/.vite/manifest.json (never served: apps/server/src/app.ts). Writes what each route loads
// beyond the entry to dist/.vite/route-preloads.json: the server names those files in the page it
// sends for the route (`<link rel="modulepreload">`), so the browser fetches them beside the entry
// instead of one after the other (docs/decisions/037-first-load.md).
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';

const dist = path.resolve(import.meta.dirname, '../dist');

/**
 * Budgets in KiB of brotli. /auth's first load is the entry bundle alone: the sign-in screen
 * without the router (src/main.tsx). Every other route also loads the app (the router and the
 * signed-in layout), the default language's strings, the person's schema, and `modules`: the
 * lazily loaded modules it renders (docs/decisions/032-route-budgets.md, 037-first-load.md).
 * `paths`: the other addresses that open the same screens (their page preloads the same files).
 */
const budgets = {
  '/auth': { modules: [], js: 110, css: 15 },
  '/auth/forgot': { modules: ['src/features/auth/components/forgot-password-page.tsx'], js: 180 },
  '/auth/reset': { modules: ['src/features/auth/components/reset-password-page.tsx'], js: 180 },
  '/unsubscribe': {
    modules: ['src/features/notifications/components/unsubscribe-page.tsx'],
    js: 180,
  },
  // The email change link and the address confirmation link (one module, two pages).
  '/settings/email': {
    modules: ['src/features/settings/components/email-link-page.tsx'],
    paths: ['/verify-email'],
    js: 180,
  },
  // '/' leads to /tiktok when signed in.
  '/tiktok': { modules: ['src/features/accounts/accounts-page.tsx'], paths: ['/'], js: 195 },
  '/scheduler': {
    modules: [
      'src/features/scheduler/scheduler-page.tsx',
      'src/features/scheduler/posts/post-list-view.tsx',
    ],
    paths: ['/scheduler/history'],
    // The form (uploads, covers, planning) loads when asked for: 218.7 -> 186.8 KiB. The drafts
    // tab (its count on every view; Rollup merges its small list into a chunk the queue loads):
    // 201.5 -> 202.9 KiB.
    js: 204,
  },
  '/scheduler/drafts': {
    modules: [
      'src/features/scheduler/scheduler-page.tsx',
      'src/features/scheduler/drafts/drafts-view.tsx',
    ],
    js: 200,
  },
  '/scheduler/calendar': {
    modules: ['src/features/scheduler/calendar/calendar-page.tsx'],
    js: 205,
  },
  // tus-js-client loads with the first upload (src/lib/upload.ts): 192.4 -> 179.5 KiB, and
  // 194.8 -> 182.0 KiB on /memes.
  '/stories': { modules: ['src/features/stories/stories-page.tsx'], js: 185 },
  '/memes': { modules: ['src/features/memes/memes-page.tsx'], js: 190 },
  // 282.4 -> 285.2 KiB once chunks under 8 kB were merged (vite.config.ts): 8 files fewer.
  '/analytics': { modules: ['src/features/analytics/analytics-page.tsx'], js: 290 },
  // The time-zone choice brings downshift's combobox (the pickers' library) to /settings: 190.0 KiB.
  '/settings': { modules: ['src/features/settings/settings-page.tsx'], js: 192 },
  '/privacy': { modules: ['src/features/legal/components/privacy-page.tsx'], js: 180 },
  '/terms': { modules: ['src/features/legal/components/terms-page.tsx'], js: 180 },
};

/**
 * The API requests a signed-in page's first screen makes, by page address, beyond /api/me (which
 * every page but /auth asks first: src/main.tsx). The server names them in a signed-in visitor's
 * page (`<link rel="preload" as="fetch">`, apps/server/src/spa-pages.ts), so they leave with the
 * scripts. Each must be the exact address the screen requests, or the browser fetches it twice
 * (lib/accounts.ts; the lists: features/scheduler/api/get-post-pages.ts, POST_PAGE_SIZE); the
 * e2e test e2e/first-screen-data.e2e.ts counts the requests.
 */
const firstScreenData = {
  '/': ['/api/accounts'],
  '/tiktok': ['/api/accounts'],
  '/scheduler': ['/api/accounts', '/api/drafts', '/api/posts/queue?limit=20'],
  '/scheduler/history': ['/api/accounts', '/api/drafts', '/api/posts/history?limit=20'],
  '/scheduler/drafts': ['/api/accounts', '/api/drafts'],
};

const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
if (!entryKey) throw new Error('The Vite manifest has no entry');
/** The app: what the entry loads when the page is not /auth (src/app/router.tsx). */
const appKeys = manifest[entryKey].dynamicImports ?? [];
/**
 * Where each module went (written by vite.config.ts's `moduleChunks`): once small chunks are
 * merged, a screen's module may share a chunk that the manifest keys by file, not by source.
 */
const modules = JSON.parse(readFileSync(path.join(dist, '.vite/modules.json'), 'utf8'));
const keyByFile = new Map(Object.entries(manifest).map(([key, chunk]) => [chunk.file, key]));
/** A module's manifest key: the key of the chunk it was bundled into. */
const keyOf = (module) => keyByFile.get(modules.chunks[module]);
/**
 * Loaded before any screen of the app shows: the French strings (the sign-in screen's files, and
 * the rest in one chunk: vite.config.ts), and the person's schema (src/lib/me.ts).
 */
const appData = [
  ...Object.keys(modules.chunks).filter((module) => module.startsWith('src/locales/fr/')),
  'src/lib/person-schema.ts',
].map(keyOf);

/** Every chunk key a module loads before it runs: itself and its static imports, transitively. */
function closure(key, seen = new Set()) {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imported of manifest[key]?.imports ?? []) closure(imported, seen);
  return seen;
}

/** Bytes on the wire: the build's brotli copy, or the file itself when too small to compress. */
const wireBytes = (file) => {
  const full = path.join(dist, file);
  if (existsSync(`${full}.br`)) return statSync(`${full}.br`).size;
  const content = readFileSync(full);
  return content.length < 1024
    ? content.length
    : brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
};

const kib = (bytes) => bytes / 1024;
const failures = [];
const rows = [];
/** Page path → the files to preload: those of the route's first load that the entry lacks. */
const preloads = {};
const entryChunks = closure(entryKey);
const entryCss = new Set([...entryChunks].flatMap((key) => manifest[key].css ?? []));
for (const [route, budget] of Object.entries(budgets)) {
  const missing = budget.modules.filter((module) => !keyOf(module));
  if (missing.length > 0) {
    failures.push(`${route}: ${missing.join(', ')} not in the build (renamed? update the budget)`);
    continue;
  }
  const chunks = new Set(entryChunks);
  const loads = route === '/auth' ? [] : [...appKeys, ...appData, ...budget.modules.map(keyOf)];
  for (const module of loads) closure(module, chunks);
  const files = [...new Set([...chunks].map((key) => manifest[key]))];
  const js = files.reduce((sum, chunk) => sum + wireBytes(chunk.file), 0);
  const cssFiles = new Set(files.flatMap((chunk) => chunk.css ?? []));
  const css = [...cssFiles].reduce((sum, file) => sum + wireBytes(file), 0);
  rows.push({ route, js: kib(js).toFixed(1), jsBudget: budget.js, css: kib(css).toFixed(1) });
  const preload = {
    js: [...chunks].filter((key) => !entryChunks.has(key)).map((key) => manifest[key].file),
    css: [...cssFiles].filter((file) => !entryCss.has(file)),
  };
  if (preload.js.length > 0 || preload.css.length > 0) {
    for (const page of [route, ...(budget.paths ?? [])]) {
      preloads[page] = { ...preload, data: ['/api/me', ...(firstScreenData[page] ?? [])] };
    }
  }
  if (kib(js) > budget.js)
    failures.push(`${route}: ${kib(js).toFixed(1)} KiB of JS > ${budget.js}`);
  const cssBudget = budget.css ?? 15;
  if (kib(css) > cssBudget)
    failures.push(`${route}: ${kib(css).toFixed(1)} KiB of CSS > ${cssBudget}`);
}

// A screen loaded on navigation (a lazy route of src/app/router.tsx) that no budget names would
// grow unwatched.
const budgeted = new Set(Object.values(budgets).flatMap((budget) => budget.modules));
for (const screen of new Set(modules.lazy['src/app/router.tsx'] ?? [])) {
  if (!budgeted.has(screen)) {
    failures.push(
      `${screen} is loaded on navigation but has no budget in ${path.basename(import.meta.filename)}`,
    );
  }
}

writeFileSync(
  path.join(dist, '.vite/route-preloads.json'),
  `${JSON.stringify(preloads, null, 2)}\n`,
);

console.log('First load per route (KiB, brotli):');
console.table(rows);
if (failures.length > 0) {
  console.error(`Route budgets exceeded:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
