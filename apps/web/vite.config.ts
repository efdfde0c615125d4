import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000', '/sandbox': 'http://localhost:3000' },
  },
  // 'hidden': maps are written next to the bundles (to decode production stack traces) but the
  // bundles do not point to them, and the server never serves them (apps/server/src/app.ts).
  build: { sourcemap: 'hidden', chunkSizeWarningLimit: 400 },
});
