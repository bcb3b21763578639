import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The Tessera server that answers /api, the theme files and the MQTT WebSocket in development.
const server = process.env.TESSERA_SERVER ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  resolve: {
    // Dev and build read the contract from source, so it never needs building first.
    alias: {
      '@tessera/contract': fileURLToPath(new URL('../contract/src/index.ts', import.meta.url)),
    },
  },
  server: {
    // The Host header is passed through unchanged (no changeOrigin): the server derives the
    // broker address it answers on /api/mosquitto/url from it, so the browser reaches /mqtt here.
    proxy: {
      '/api': server,
      '/themes': server,
      '/mqtt': { target: server, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: separate chunks stay cached across releases.
        codeSplitting: {
          groups: [
            { name: 'mqtt', test: /node_modules[\\/]mqtt[\\/]/ },
            // Only the material preview and the laying preview's room use three.js, loaded when they open.
            { name: 'three', test: /node_modules[\\/]three[\\/]/ },
            // Only the reference preparation step uses ml-matrix, loaded when it opens.
            { name: 'matrix', test: /node_modules[\\/](ml-[^\\/]+|is-any-array)[\\/]/ },
            // Only the admin screens draw charts (issue 29, part 6): members never load Chart.js.
            { name: 'charts', test: /node_modules[\\/](chart\.js|@kurkle)[\\/]/ },
            // zod's settings ride with zod: a shared chunk of the contract builds its schemas when it
            // is evaluated, which is before the entry's own body runs.
            { name: 'vendor', test: /node_modules[\\/]|[\\/]zod-without-eval\.ts$/ },
          ],
        },
      },
    },
  },
});
