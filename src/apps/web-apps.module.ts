import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { DynamicModule, OnModuleInit } from '@nestjs/common';
import { Inject, Module } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Application, Request, RequestHandler } from 'express';
import type { Logger } from '../common/logging/logger';
import { indexFiles, sendStatic } from './static-files';

/** The apps of web/ (product-decisions §14), each built by `npm run build` into `dist/web/<name>` and served at `/<name>`. */
export const WEB_APPS = ['app', 'console'] as const;
const WEB_BUILD_DIR = Symbol('WEB_BUILD_DIR');

/**
 * Where the built apps are: `dist/web`, two levels above the compiled dist/src/apps/ (so beside it in the image too)
 * and under dist/ of the repository when the sources run directly (tests). A build is recognised by the manifest
 * Vite writes (.vite/manifest.json, never served: static-files.ts lists no dot-folder), so the sources of web/ (two
 * levels above src/apps/) never pass for one. Null when `npm run build` has not built them.
 */
export function webBuildDir(): string | null {
  const candidates = [join(__dirname, '..', '..', 'web'), join(__dirname, '..', '..', 'dist', 'web')];
  return (
    candidates.find((dir) =>
      WEB_APPS.every((name) => existsSync(join(dir, name, '.vite', 'manifest.json'))),
    ) ?? null
  );
}

/**
 * Hashed bundles (`assets/name-<hash>.js`) never change under their name, so browsers keep them for a year without
 * asking; everything else (index.html, the service worker, the manifest) is revalidated on every load, so a new build
 * reaches users on their next visit.
 */
function cacheControl(urlPath: string): string {
  return isAsset(urlPath) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

const isAsset = (urlPath: string): boolean => urlPath === '/assets' || urlPath.startsWith('/assets/');

function decodedPath(req: Request): string | null {
  try {
    return decodeURIComponent(req.path);
  } catch {
    return null;
  }
}

/**
 * One app's handler, mounted at `/<name>`: its files, each in the coding the browser accepts best (static-files.ts),
 * and its index.html for any other path below it (client-side routes such as /app/tasks/123), except under assets/:
 * a missing bundle goes on to the API's 404 envelope, never a page served as JavaScript. `/<name>` itself redirects
 * to `/<name>/`, the base the pages' relative URLs resolve against. Other methods than GET and HEAD go on to the API,
 * which answers 404.
 */
function appHandler(name: string, root: string): RequestHandler {
  const files = indexFiles(root);
  const index = files.get('/index.html');
  if (!index) throw new Error(`${root} has no index.html`);
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const [pathname, query] = splitUrl(req.originalUrl);
    if (pathname === `/${name}`) return res.redirect(301, `/${name}/${query}`);
    const path = decodedPath(req);
    const file = path === null ? undefined : files.get(path === '/' ? '/index.html' : path);
    if (file) return sendStatic(req, res, next, file, cacheControl(path!));
    if (path === null || isAsset(path)) return next();
    sendStatic(req, res, next, index, cacheControl('/index.html'));
  };
}

function splitUrl(url: string): [string, string] {
  const at = url.indexOf('?');
  return at < 0 ? [url, ''] : [url.slice(0, at), url.slice(at)];
}

/**
 * Serves the web apps from the API process, one origin for the apps and the API they call (no CORS, one CSP), from
 * the files the build precompressed (brotli and gzip beside each text file), chosen by the request's
 * Accept-Encoding. The API's routes are outside /app and /console, so they never reach these handlers. Without a
 * build the module serves nothing and says so once at start-up.
 *
 * The handlers are registered on the express instance at module init: in `Test.createTestingModule` the HTTP adapter
 * does not exist before that, and at init they still go in before Nest's 404 handler, so the e2e and browser suites
 * test the serving production runs.
 */
@Module({})
export class WebAppsModule implements OnModuleInit {
  static register(logger: Logger): DynamicModule {
    const dir = webBuildDir();
    if (!dir) logger.warn('the web apps are not built (npm run build): /app and /console are not served');
    return { module: WebAppsModule, providers: [{ provide: WEB_BUILD_DIR, useValue: dir }] };
  }

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(WEB_BUILD_DIR) private readonly dir: string | null,
  ) {}

  onModuleInit(): void {
    const dir = this.dir;
    if (!dir) return;
    const app = this.adapterHost.httpAdapter.getInstance<Application>();
    for (const name of WEB_APPS) app.use(`/${name}`, appHandler(name, join(dir, name)));
  }
}
