import type { HtmlTagDescriptor, IndexHtmlTransformContext, IndexHtmlTransformResult, Plugin } from 'vite';

type Bundle = NonNullable<IndexHtmlTransformContext['bundle']>;
type Chunk = Extract<Bundle[string], { type: 'chunk' }>;

/**
 * Build plugins that shape the worker app's page for its first open on a phone network (issue 27): what the page
 * carries itself and what it asks for at once, so the first screen needs as few round trips as it can.
 */

/**
 * Puts the page's own stylesheet into the page (`<style>`) instead of linking it: a linked stylesheet holds back the
 * first paint until it has arrived, one more round trip on a phone network before even the loading line shows
 * (Lighthouse's "render-blocking resources"). The worker app's whole stylesheet is under 5 kB (2.4 kB with brotli),
 * sent with the page, which is revalidated on every open anyway and kept by the service worker for offline opens.
 * The CSP allows it (`style-src 'self' 'unsafe-inline'`). Stylesheets of lazy chunks, if any, stay files.
 */
export function inlineCss(): Plugin {
  return pagePlugin('legwork:inline-css', (html, bundle, base) =>
    html.replace(/<link rel="stylesheet"[^>]*href="([^"]+\.css)"[^>]*>/g, (_tag, href: string) => {
      const fileName = href.slice(base.length);
      const css = stylesheet(bundle, fileName);
      delete bundle[fileName];
      return `<style>${css}</style>`;
    }),
  );
}

/**
 * Adds `<link rel="modulepreload">` to the page for the chunks of the given lazy modules and their static imports,
 * so the browser fetches them beside the entry instead of after the entry has run and rendered the route that
 * imports them. The worker app preloads its sign-in screen: a phone's first open is always signed out, and the
 * preload saves a round trip on the way to the first screen (under 3 kB of brotli for a signed-in open, once per
 * build). It also puts the screen among the page's bundles the service worker keeps at install (public/sw.js), so
 * the app opens offline on the sign-in screen after one visit.
 */
export function preloadChunks(modules: string[]): Plugin {
  return pagePlugin('legwork:preload-chunks', (html, bundle, base) => {
    const files = new Set(modules.flatMap((module) => closure(bundle, chunkOf(bundle, module))));
    const tags: HtmlTagDescriptor[] = [...files]
      .filter((file) => !html.includes(`"${base}${file}"`))
      .map((file) => ({
        tag: 'link',
        attrs: { rel: 'modulepreload', crossorigin: true, href: `${base}${file}` },
        injectTo: 'head',
      }));
    return { html, tags };
  });
}

/** A build plugin that rewrites the built page once its bundle is written, knowing the app's base path (`/app/`). */
function pagePlugin(
  name: string,
  transform: (html: string, bundle: Bundle, base: string) => IndexHtmlTransformResult,
): Plugin {
  let base = '/';
  return {
    name,
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler: (html, ctx) => (ctx.bundle ? transform(html, ctx.bundle, base) : html),
    },
  };
}

function stylesheet(bundle: Bundle, fileName: string): string {
  const asset = bundle[fileName];
  if (asset?.type !== 'asset') throw new Error(`inline-css: ${fileName} is not a stylesheet of the build`);
  const css = typeof asset.source === 'string' ? asset.source : new TextDecoder().decode(asset.source);
  if (css.includes('</style')) throw new Error(`inline-css: ${fileName} would end the <style> element early`);
  return css;
}

/** The chunk whose entry is the module (a path below the app's root, e.g. `screens/SignIn.tsx`). */
function chunkOf(bundle: Bundle, module: string): Chunk {
  const chunk = Object.values(bundle).find(
    (out): out is Chunk => out.type === 'chunk' && (out.facadeModuleId ?? '').endsWith(`/${module}`),
  );
  if (!chunk) throw new Error(`preload-chunks: no chunk has ${module} for entry`);
  return chunk;
}

/** The chunk's file and its static imports' files, recursively. */
function closure(bundle: Bundle, chunk: Chunk, seen = new Set<string>()): string[] {
  if (seen.has(chunk.fileName)) return [];
  seen.add(chunk.fileName);
  const imports = chunk.imports
    .map((file) => bundle[file])
    .filter((out): out is Chunk => out?.type === 'chunk');
  return [chunk.fileName, ...imports.flatMap((imported) => closure(bundle, imported, seen))];
}
