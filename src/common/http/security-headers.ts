import helmet from 'helmet';

/**
 * Security headers on every response (helmet): nosniff, no framing anywhere (frame-ancestors 'none' and
 * X-Frame-Options DENY: no page of this origin is meant to be embedded, so clickjacking has nothing to aim at), and
 * one Content Security Policy for the whole origin, what a web app served from this origin (under /app or /console)
 * can live with (the pages of /docs replace it with their own, stricter one: see openapi/docs-page.ts):
 *
 * - scripts only from this origin, no inline script or handler;
 * - styles from this origin plus inline styles (React-style apps set style attributes);
 * - images from this origin, data: (inline icons), blob: (a photo previewed before it is uploaded) and the origins
 *   of the object store (`imageOrigins`: with STORAGE=s3 a photo's /uploads URL redirects to a presigned URL of the
 *   bucket, which the browser checks against img-src as well);
 * - fetch and WebSocket to this origin only (the API and /ws);
 * - no plugins, no <base> elsewhere, forms post here only.
 *
 * Live mode adds HSTS (a year, subdomains) and upgrade-insecure-requests. Sandbox mode leaves both out: a sandbox
 * on http://localhost must not make the browser insist on https for that host afterwards.
 *
 * Cross-Origin-Resource-Policy is `cross-origin`: the API authenticates with bearer tokens, never cookies, so a
 * cross-origin embed carries no credential, and agents display proof photos in their own apps on other origins.
 */
export function securityHeaders(live: boolean, imageOrigins: readonly string[] = []) {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...imageOrigins],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(live ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    frameguard: { action: 'deny' },
    strictTransportSecurity: live ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    crossOriginResourcePolicy: { policy: 'cross-origin' },
  });
}
