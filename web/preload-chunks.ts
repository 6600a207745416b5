import type { HtmlTagDescriptor, IndexHtmlTransformContext, Plugin } from 'vite';

type Bundle = NonNullable<IndexHtmlTransformContext['bundle']>;
type Chunk = Extract<Bundle[string], { type: 'chunk' }>;

/**
 * Adds `<link rel="modulepreload">` to the built page for the chunks of the given lazy modules and their static
 * imports, so the browser fetches them beside the entry instead of after the entry has run and rendered the route
 * that imports them. The worker app preloads its sign-in screen: a phone's first open is always signed out, and the
 * preload saves a round trip on the way to the first screen (under 3 kB of brotli for a signed-in open, once per
 * build). It also puts the screen among the page's bundles the service worker keeps at install (public/sw.js), so
 * the app opens offline on the sign-in screen after one visit.
 */
export function preloadChunks(modules: string[]): Plugin {
  let base = '/';
  return {
    name: 'legwork:preload-chunks',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return html;
        const files = new Set(modules.flatMap((module) => closure(bundle, chunkOf(bundle, module))));
        const tags: HtmlTagDescriptor[] = [...files]
          .filter((file) => !html.includes(`"${base}${file}"`))
          .map((file) => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `${base}${file}` },
            injectTo: 'head',
          }));
        return { html, tags };
      },
    },
  };
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
