import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { DynamicModule, OnModuleInit } from '@nestjs/common';
import { Inject, Module } from '@nestjs/common';
import { ApplicationConfig, HttpAdapterHost } from '@nestjs/core';
import { ExpressLoader } from '@nestjs/serve-static';
import type { Response } from 'express';
import type { Logger } from '../common/logging/logger';

/** The apps of web/ (product-decisions §14), each built by `npm run build` into `dist/web/<name>` and served at `/<name>`. */
export const WEB_APPS = ['app', 'console'] as const;
const WEB_BUILD_DIR = Symbol('WEB_BUILD_DIR');

/**
 * Where the built apps are: `dist/web`, two levels above the compiled dist/src/apps/ (so beside it in the image too)
 * and under dist/ of the repository when the sources run directly (tests). A build is recognised by the manifest
 * Vite writes (.vite/manifest.json, never served: express.static ignores dot-folders), so the sources of web/ (two
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
function cacheHeaders(res: Response, path: string): void {
  res.setHeader(
    'Cache-Control',
    /[\\/]assets[\\/]/.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache',
  );
}

/**
 * Serves the web apps from the API process, one origin for the apps and the API they call (no CORS, one CSP). Each
 * app falls back to its own index.html for any path below it (client-side routes such as /app/tasks/123), except
 * under its assets/ folder: a missing bundle is a 404, never a page served as JavaScript. The API's routes are
 * outside /app and /console, so they never reach these handlers. Without a build the module serves nothing and
 * says so once at start-up.
 *
 * The handlers are @nestjs/serve-static's express loader, registered here at module init rather than through
 * `ServeStaticModule.forRoot`: that module picks its loader when its providers are built, which in
 * `Test.createTestingModule` is before the HTTP adapter exists, so the e2e and browser suites would get its no-op
 * loader and test an app that serves nothing. At init the adapter exists in both, and the handlers still go in
 * before Nest's 404 handler.
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
    private readonly appConfig: ApplicationConfig,
    @Inject(WEB_BUILD_DIR) private readonly dir: string | null,
  ) {}

  onModuleInit(): void {
    const dir = this.dir;
    if (!dir) return;
    new ExpressLoader().register(
      this.adapterHost.httpAdapter,
      this.appConfig,
      WEB_APPS.map((name) => ({
        rootPath: join(dir, name),
        serveRoot: `/${name}`,
        exclude: [`/${name}/assets/{*path}`],
        serveStaticOptions: { index: 'index.html', setHeaders: cacheHeaders },
      })),
    );
  }
}
