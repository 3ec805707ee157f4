import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

// The API's address in development: the same PORT the API listens on.
const api = process.env.VITE_DEV_API ?? `http://localhost:${process.env.PORT ?? 3000}`;

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: { alias: { '@': path.resolve(import.meta.dirname, 'src') } },
  server: {
    port: 5173,
    proxy: Object.fromEntries(
      ['/api', '/product-api', '/job-api', '/ratings-api', '/dev', '/uploads'].map((p) => [p, api]),
    ),
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    assetsInlineLimit: 2048,
    manifest: true,
    modulePreload: { polyfill: false },
  },
});
