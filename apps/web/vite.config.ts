import path from 'node:path';
import { constants } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';

/**
 * The page's scripts at low priority (`fetchpriority="low"` on the entry and its preloads; the
 * server marks a route's own preloads the same way, apps/server/src/spa-pages.ts): the stylesheet
 * and the first screen's API requests go first, so the spinner paints as soon as the stylesheet
 * has come instead of waiting behind 100-odd KiB of scripts, which draw nothing until they have all
 * arrived anyway (docs/decisions/037-first-load.md).
 */
const scriptsAfterTheFirstPaint = (): Plugin => ({
  name: 'cadence:scripts-after-the-first-paint',
  transformIndexHtml: {
    order: 'post',
    handler: (html) =>
      html
        .replaceAll(
          '<script type="module" crossorigin',
          '<script type="module" fetchpriority="low" crossorigin',
        )
        .replaceAll(
          '<link rel="modulepreload" crossorigin',
          '<link rel="modulepreload" fetchpriority="low" crossorigin',
        ),
  },
});

/**
 * dist/.vite/modules.json: the chunk each of the app's source modules ended up in, and the
 * modules each one loads lazily. scripts/route-budgets.mjs reads it: once small chunks are merged
 * (below), a screen's module is no longer always a chunk of its own that the manifest names.
 */
const moduleChunks = (): Plugin => ({
  name: 'cadence:module-chunks',
  apply: 'build',
  generateBundle(_, bundle) {
    const root = import.meta.dirname;
    /** `src/…` for the app's own modules; undefined for dependencies and virtual modules. */
    const source = (id: string) => {
      const relative = path.relative(root, id).split(path.sep).join('/');
      return id.startsWith('\0') || relative.startsWith('..') ? undefined : relative;
    };
    const chunks: Record<string, string> = {};
    for (const output of Object.values(bundle)) {
      if (output.type !== 'chunk') continue;
      for (const id of output.moduleIds) {
        const module = source(id);
        if (module) chunks[module] = output.fileName;
      }
    }
    const lazy: Record<string, string[]> = {};
    for (const id of this.getModuleIds()) {
      const module = source(id);
      const imported = (this.getModuleInfo(id)?.dynamicallyImportedIds ?? []).flatMap(
        (importedId) => source(importedId) ?? [],
      );
      if (module && imported.length > 0) lazy[module] = [...new Set(imported)];
    }
    this.emitFile({
      type: 'asset',
      fileName: '.vite/modules.json',
      source: `${JSON.stringify({ chunks, lazy }, null, 2)}\n`,
    });
  },
});

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    scriptsAfterTheFirstPaint(),
    moduleChunks(),
    // Brotli and gzip copies of every text asset, made once at build time at the best settings;
    // the server picks one by Accept-Encoding (@fastify/static's preCompressed, app.ts).
    compression({
      include: /\.(js|css|html|svg|json|txt|webmanifest)$/,
      exclude: /\.map$/,
      threshold: 1024,
      algorithms: [
        defineAlgorithm('brotliCompress', { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        defineAlgorithm('gzip', { level: 9 }),
      ],
      skipIfLargerOrEqual: true,
    }),
  ],
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000', '/sandbox': 'http://localhost:3000' },
  },
  // 'hidden': maps are written next to the bundles (to decode production stack traces) but the
  // bundles do not point to them, and the server never serves them (apps/server/src/app.ts).
  // The manifest maps each source module to its chunks: scripts/route-budgets.mjs reads it.
  build: {
    sourcemap: 'hidden',
    chunkSizeWarningLimit: 400,
    manifest: true,
    rollupOptions: {
      output: {
        // Rollup merges a chunk under 8 kB (the app's shared components and hooks, a few KiB each)
        // into one that loads with it, where no module then runs that would not have: a route loads
        // fewer files for about the same bytes, and each file is a round trip on a phone's six
        // connections (docs/decisions/037-first-load.md).
        experimentalMinChunkSize: 8_000,
        // Merged chunks take the name of one of their modules: the two every screen loads are
        // named for what they hold, not for the page that happened to be merged into them
        // (src/main.tsx looks for `app-` among the page's preloads).
        chunkFileNames: (chunk) => {
          const holds = (file: string) => chunk.moduleIds.some((id) => id.endsWith(file));
          if (holds('/src/app/router.tsx')) return 'assets/app-[hash].js';
          if (holds('/src/lib/person-schema.ts')) return 'assets/person-schema-[hash].js';
          return 'assets/[name]-[hash].js';
        },
        // A language's strings for the app come in one file, not one per feature; the sign-in
        // screen's own ('auth', 'common') stay apart, so it loads only those (src/lib/i18n.ts):
        // the default language's in the entry, another's in a file of their own.
        manualChunks: (id) => {
          const file = /\/locales\/(\w+)\/(\w+)\.json$/.exec(id);
          if (!file) return undefined;
          if (file[2] !== 'auth' && file[2] !== 'common') return `strings-${file[1]}`;
          return file[1] === 'fr' ? undefined : `sign-in-strings-${file[1]}`;
        },
      },
    },
  },
});
