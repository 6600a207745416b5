import type { Express, Response } from 'express';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { marked } from 'marked';
import type { AppConfig } from '../config/config';

/**
 * The API reference at /docs: Redoc's standalone bundle, served from node_modules (never a CDN: the service must
 * document itself offline), over /openapi.json, with the guides of docs/ one click away and rendered at
 * /docs/<guide>.md, and a banner in sandbox mode. Redoc only reads: it has no "try it" console, so no credential is
 * ever typed into the page or kept in the browser. Every page has a strict Content-Security-Policy (scripts from
 * this origin only; Redoc's styled components need inline styles, its search runs in a blob worker).
 */

/** The guides shown in the page's bar, in reading order; every other docs/*.md is served too. */
const FEATURED: [file: string, title: string][] = [
  ['integration.md', 'Integration guide'],
  ['webhooks.md', 'Webhooks & events'],
  ['errors.md', 'Errors'],
  ['api-surfaces.md', 'API surfaces'],
  ['sandbox.md', 'Sandbox guide'],
  ['fair-outcomes.md', 'Fair outcomes'],
  ['mcp.md', 'MCP server'],
  ['provider-sandbox.md', 'Payment simulators'],
];

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Where docs/ is: at the repository root (or /app in the image, which copies it), three levels above the compiled
 * dist/src/openapi/ and two above src/openapi/ when the sources run directly (tests).
 */
export const DOCS_DIR =
  [join(__dirname, '..', '..', '..', 'docs'), join(__dirname, '..', '..', 'docs')].find((dir) =>
    existsSync(join(dir, 'integration.md')),
  ) ?? join(__dirname, '..', '..', '..', 'docs');

const REDOC_BUNDLE = require.resolve('redoc/bundles/redoc.standalone.js');

const INIT_JS = `(function () {
  var el = document.getElementById('redoc');
  Redoc.init(el.getAttribute('data-spec'), {
    scrollYOffset: 'header',
    requiredPropsFirst: true,
    expandResponses: '200,201',
    jsonSampleExpandLevel: 3,
    hideHostname: true,
    sortTagsAlphabetically: false,
    theme: { colors: { primary: { main: '#0b6e4f' } }, sidebar: { width: '280px' } }
  }, el);
})();
`;

const STYLE = `
  body { margin: 0; font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans SC", sans-serif; }
  header { position: sticky; top: 0; z-index: 10; background: #0b2e24; color: #fff; }
  header .bar { display: flex; flex-wrap: wrap; align-items: center; gap: 4px 18px; padding: 10px 20px; }
  header .brand { font-weight: 700; margin-right: 12px; }
  header a { color: #cfeee2; text-decoration: none; font-size: 14px; }
  header a:hover, header a:focus { text-decoration: underline; color: #fff; }
  .sandbox { background: #ffe08a; color: #3d2f00; padding: 6px 20px; font-size: 14px; }
  main.guide { max-width: 860px; margin: 24px auto 64px; padding: 0 20px; line-height: 1.55; color: #1d2327; }
  main.guide pre { background: #f4f6f7; padding: 12px; overflow-x: auto; }
  main.guide code { font-size: 90%; }
  main.guide table { border-collapse: collapse; display: block; overflow-x: auto; }
  main.guide th, main.guide td { border: 1px solid #d0d7de; padding: 4px 8px; text-align: left; vertical-align: top; }
`;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function header(sandbox: boolean): string {
  const links = FEATURED.map(([file, title]) => `<a href="/docs/${file}">${escapeHtml(title)}</a>`).join('');
  const banner = sandbox
    ? '<div class="sandbox" role="status"><strong>Sandbox.</strong> This service runs in sandbox mode: test keys ' +
      '(<code>lw_test_…</code>), simulated payment providers, no real money. Nothing here reaches live data.</div>'
    : '';
  return (
    `<header><nav class="bar" aria-label="Guides"><a class="brand" href="/docs">Legwork API</a>${links}` +
    `<a href="/openapi.json">openapi.json</a></nav>${banner}</header>`
  );
}

function page(title: string, sandbox: boolean, body: string, scripts: string[] = []): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
${header(sandbox)}
${body}
${scripts.map((s) => `<script src="${s}"></script>`).join('\n')}
</body>
</html>
`;
}

function send(res: Response, type: string, content: string | Buffer, cacheSeconds = 0): void {
  res.setHeader('Content-Security-Policy', CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cache-Control', cacheSeconds > 0 ? `public, max-age=${cacheSeconds}` : 'no-cache');
  res.type(type).send(content);
}

/** The guides of docs/ by file name, read once at start: only these names are ever served. */
function loadGuides(): Map<string, string> {
  const guides = new Map<string, string>();
  if (!existsSync(DOCS_DIR)) return guides;
  for (const file of readdirSync(DOCS_DIR)) {
    if (/^[a-z0-9-]+\.md$/.test(file)) guides.set(file, readFileSync(join(DOCS_DIR, file), 'utf8'));
  }
  return guides;
}

/** Registers /docs, its assets and the guides. `skip` names guides served elsewhere (errors.md, from the catalogue). */
export function serveDocs(server: Express, config: AppConfig, skip: string[] = []): void {
  const sandbox = config.paymentMode === 'sandbox';
  const reference = page(
    sandbox ? 'Legwork API reference (sandbox)' : 'Legwork API reference',
    sandbox,
    '<div id="redoc" data-spec="/openapi.json"></div>',
    ['/docs/assets/redoc.standalone.js', '/docs/assets/docs.js'],
  );
  const bundle = readFileSync(REDOC_BUNDLE);
  server.get(['/docs', '/docs/'], (_req, res) => send(res, 'html', reference));
  server.get('/docs/assets/redoc.standalone.js', (_req, res) => send(res, 'js', bundle, 86_400));
  server.get('/docs/assets/docs.js', (_req, res) => send(res, 'js', INIT_JS, 3_600));
  const guides = loadGuides();
  for (const name of skip) guides.delete(name);
  const rendered = new Map<string, string>();
  for (const [file, markdown] of guides) {
    const title = /^# (.+)$/m.exec(markdown)?.[1] ?? file;
    const html = marked.parse(markdown, { async: false, gfm: true });
    rendered.set(file, page(`${title} · Legwork`, sandbox, `<main class="guide">${html}</main>`));
  }
  server.get('/docs/:guide', (req, res, next) => {
    const html = rendered.get(req.params.guide);
    if (!html) return next();
    send(res, 'html', html);
  });
}
