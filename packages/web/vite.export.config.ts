import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { BROWSERS } from './browsers.ts';
import { nodeOnlyLoaders } from './node-only.ts';

/**
 * The HTML export's viewer: the session page reading embedded data, built into ONE script (`export.js`) and ONE
 * stylesheet (`export.css`) with every asset inlined, which the exporter writes into the HTML file.
 */
export default defineConfig({
  plugins: [react(), nodeOnlyLoaders()],
  base: './',
  build: {
    outDir: 'dist/export',
    emptyOutDir: true,
    sourcemap: false,
    target: BROWSERS,
    cssTarget: BROWSERS,
    chunkSizeWarningLimit: 3000,
    modulePreload: false,
    assetsInlineLimit: Number.MAX_SAFE_INTEGER,
    cssCodeSplit: false,
    rollupOptions: {
      input: 'src/export-main.tsx',
      output: {
        entryFileNames: 'export.js',
        assetFileNames: 'export[extname]',
        codeSplitting: false,
      },
    },
  },
});
