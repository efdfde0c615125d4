import { constants } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
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
        // A language's strings for the app come in one file, not one per feature; the sign-in
        // screen's own ('auth', 'common') stay apart, so it loads only those (src/lib/i18n.ts).
        manualChunks: (id) => {
          const file = /\/locales\/(\w+)\/(\w+)\.json$/.exec(id);
          if (!file || file[2] === 'auth' || file[2] === 'common') return undefined;
          return `strings-${file[1]}`;
        },
      },
    },
  },
});
