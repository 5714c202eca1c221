import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { BROWSERS } from './browsers.ts';
import { nodeOnlyLoaders } from './node-only.ts';

export default defineConfig({
  plugins: [react(), nodeOnlyLoaders()],
  base: './',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    target: BROWSERS,
    cssTarget: BROWSERS,
    chunkSizeWarningLimit: 1500,
    // no inline scripts or modulepreload polyfill: the server's CSP allows only 'self'
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:4317' },
  },
});
