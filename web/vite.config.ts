import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { inlineCss, preloadChunks } from './first-open.ts';
import { precompress } from './precompress.ts';

/**
 * One config, two apps: `--mode app` builds the worker app and `--mode console` the agent console, each from its own
 * folder with its own base path (/app/, /console/) into dist/web/<app> of the repository, where the API process
 * serves it (src/apps/web-apps.module.ts). Separate builds rather than one multi-page build: each app's assets sit
 * under its own path, so each falls back to its own index.html and gets its own service-worker scope, and the
 * worker app's first load never includes console code. `shared/` is bundled into both.
 */
const APPS = ['app', 'console'];
const web = fileURLToPath(new URL('.', import.meta.url));
/**
 * The API's vocabulary (types, enum arrays, limits) from the SDK's sources, so the apps build without the SDK built
 * first and bundle only the arrays they use (tsconfig.json's `paths` says the same to the compiler).
 */
export const sdkTypes = `${web}../packages/sdk/src/types.ts`;

export default defineConfig(({ mode }) => {
  if (!APPS.includes(mode)) throw new Error(`vite --mode must be one of ${APPS.join(', ')} (got ${mode})`);
  return {
    root: `${web}${mode}`,
    base: `/${mode}/`,
    publicDir: `${web}${mode}/public`,
    resolve: { alias: { '@legwork/sdk/types': sdkTypes } },
    plugins: [
      react(),
      // The worker app's first open on a phone network: the page paints without waiting for a stylesheet, and its
      // sign-in screen (a first open is signed out) comes with the entry (first-open.ts).
      ...(mode === 'app' ? [inlineCss(), preloadChunks(['screens/SignIn.tsx'])] : []),
      precompress(),
    ],
    build: {
      outDir: `${web}../dist/web/${mode}`,
      emptyOutDir: true,
      // .vite/manifest.json: the API recognises a build by it (src/apps/web-apps.module.ts).
      manifest: true,
      // Gzipped sizes in the build's output: the worker app's first load must stay under 200 KB (docs/worker-app.md).
      reportCompressedSize: true,
      sourcemap: false,
    },
    server: {
      fs: { allow: [web, sdkTypes, `${web}../packages/sdk/src/generated`] },
      // `npm run dev:app -w @legwork/web` beside `npm start`: the API and its WebSocket on the same origin.
      proxy: {
        '/v1': 'http://localhost:8000',
        '/ws': { target: 'ws://localhost:8000', ws: true },
      },
    },
  };
});
