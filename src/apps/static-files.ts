import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { NextFunction, Request, Response } from 'express';
import Negotiator from 'negotiator';
import { ApiError } from '../common/errors/api-error';

/** The codings the build writes beside a text file (web/precompress.ts), in the order the server prefers them. */
const CODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;
type Coding = (typeof CODINGS)[number]['name'];
const PREFERRED: string[] = [...CODINGS.map((c) => c.name), 'identity'];

/** One stored form of a file: its bytes on disk and a strong validator of exactly those bytes. */
interface Representation {
  path: string;
  etag: string;
}

export interface StaticFile {
  /** The original's extension: the Content-Type of every representation. */
  ext: string;
  identity: Representation;
  /** The precompressed copies the build wrote; none for files that do not compress (images). */
  encoded: Partial<Record<Coding, Representation>>;
}

function representation(path: string): Representation {
  // A hash of the bytes rather than size and mtime: each coding gets its own validator (a cache or a range request
  // never mixes the brotli bytes with the gzip ones), and every instance of one build answers the same.
  const digest = createHash('sha256').update(readFileSync(path)).digest('base64url');
  return { path, etag: `"${digest.slice(0, 27)}"` };
}

/**
 * The files of one built app by URL path (`/assets/index-<hash>.js`, `/index.html`), read once at start: the build
 * never changes under a running server (`npm start` builds before it starts). Dot-folders (Vite's .vite/manifest.json)
 * and the compressed copies are not files of their own.
 */
export function indexFiles(root: string, prefix = ''): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    const path = join(root, entry.name);
    const url = `${prefix}/${entry.name}`;
    if (entry.name.startsWith('.')) continue;
    if (entry.isDirectory()) {
      for (const [sub, file] of indexFiles(path, url)) files.set(sub, file);
      continue;
    }
    if (CODINGS.some((c) => entry.name.endsWith(c.suffix))) continue;
    const encoded: StaticFile['encoded'] = {};
    for (const c of CODINGS) {
      if (existsSync(path + c.suffix)) encoded[c.name] = representation(path + c.suffix);
    }
    files.set(url, { ext: extname(entry.name), identity: representation(path), encoded });
  }
  return files;
}

/**
 * The coding to send: the best the client accepts (Accept-Encoding q-values), br before gzip before identity when it
 * weighs them alike (browsers list gzip first). A client that accepts none of them, or says nothing, gets identity.
 */
function chooseCoding(req: Request, file: StaticFile): Coding | 'identity' {
  const available = PREFERRED.filter((c) => c === 'identity' || file.encoded[c as Coding]);
  const best = new Negotiator(req).encodings(available, { preferred: PREFERRED })[0];
  return (best as Coding | undefined) ?? 'identity';
}

/**
 * Sends one file in the coding the client accepts best, through express's `res.sendFile` (the `send` library), which
 * answers HEAD, conditional requests (If-None-Match against the representation's ETag, If-Modified-Since) and byte
 * ranges of the bytes it sends (a range of a brotli answer counts brotli bytes, as RFC 9110 says), with the
 * Content-Length of those bytes. `Vary: Accept-Encoding` on every answer of a file that has compressed copies, so
 * a shared cache never gives brotli to a client that did not ask for it.
 */
export function sendStatic(
  req: Request,
  res: Response,
  next: NextFunction,
  file: StaticFile,
  cacheControl: string,
): void {
  const coding = chooseCoding(req, file);
  const chosen = coding === 'identity' ? file.identity : file.encoded[coding]!;
  if (Object.keys(file.encoded).length > 0) res.vary('Accept-Encoding');
  if (coding !== 'identity') res.setHeader('Content-Encoding', coding);
  res.type(file.ext);
  res.setHeader('Cache-Control', cacheControl);
  res.setHeader('ETag', chosen.etag);
  // dotfiles 'allow': the paths come from indexFiles, which lists no dot-file of the build; the check would
  // otherwise refuse every file of a checkout that sits below a dot-folder.
  res.sendFile(chosen.path, { cacheControl: false, etag: false, dotfiles: 'allow' }, (err?: SendError) => {
    if (err && !res.headersSent && err.code !== 'ECONNABORTED') next(refusal(res, err));
  });
}

/** What `send` reports when it answers nothing itself: an HTTP status, and for 416 the length to quote. */
interface SendError extends Error {
  status?: number;
  code?: string;
  headers?: Record<string, string>;
}

/** Headers that describe the bytes of the representation, which an error answer does not carry. */
const REPRESENTATION_HEADERS = ['Content-Encoding', 'Content-Type', 'ETag', 'Last-Modified', 'Cache-Control'];

/**
 * A request `send` would not answer with the file, in the error envelope: a condition that does not hold (412), a
 * range outside the file (416, with `Content-Range: bytes *\/<length>` as RFC 9110 asks), or a file gone since the
 * start (the API's 404). Anything else is unexpected.
 */
function refusal(res: Response, err: SendError): Error | undefined {
  for (const name of REPRESENTATION_HEADERS) res.removeHeader(name);
  if (err.status === 412)
    return new ApiError('precondition_failed', 'The condition does not hold for this file.');
  if (err.status === 416) {
    return new ApiError('range_not_satisfiable', 'The range lies outside the file.', {}, err.headers ?? {});
  }
  if (err.status === 404) return undefined;
  return err;
}
