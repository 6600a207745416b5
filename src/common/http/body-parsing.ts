import express, { type NextFunction, type Request, type Response } from 'express';
import { ApiError } from '../errors/api-error';
import { renderError } from '../errors/all-exceptions.filter';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth';

/** JSON bodies up to this size; uploads use multipart and have their own limits. */
const JSON_LIMIT = '256kb';

/**
 * JSON and form body parsers that keep the raw bytes (payment providers sign the raw body), followed by an error
 * handler that turns parser failures into the error envelope: malformed JSON is 400 invalid_json, a body that
 * cannot be read (a corrupt compressed body, a truncated one) or JSON nested deeper than MAX_JSON_DEPTH 400
 * invalid_body. Nothing a client sends may reach the catch-all as an unexpected error.
 */
export function bodyParsing() {
  const keepRaw = (req: Request, _res: Response, buf: Buffer): void => {
    req.rawBody = buf;
  };
  return [
    express.json({ limit: JSON_LIMIT, verify: keepRaw, strict: false }),
    express.urlencoded({ extended: false, limit: JSON_LIMIT, verify: keepRaw }),
    express.text({ type: 'text/plain', limit: JSON_LIMIT, verify: keepRaw }),
    refuseDeepJson,
    (err: unknown, req: Request, res: Response, next: NextFunction): void => {
      const e = err as ParserError | undefined;
      let error: ApiError | null = null;
      if (e?.type === 'entity.parse.failed') {
        error = new ApiError('invalid_json', 'The request body is not valid JSON.', {
          details: e.message ?? 'malformed JSON',
        });
      } else if (e?.type === 'entity.too.large') {
        error = new ApiError('payload_too_large', `The request body exceeds ${JSON_LIMIT}.`);
      } else if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported') {
        error = new ApiError('unsupported_media_type', 'Unsupported body encoding or charset.');
      } else if (isClientReadError(e)) {
        // body-parser marks every failure to read the bytes as the client's (400) but gives most no type: a
        // gzip, br or deflate stream that does not inflate (zlib's Z_DATA_ERROR, Z_BUF_ERROR...), a body
        // shorter than its Content-Length, an aborted upload.
        error = new ApiError('invalid_body', 'The request body could not be read.', {
          details: bodyReadDetail(e),
        });
      }
      if (!error) return next(err);
      res.status(error.status).json(renderError(error, req.id));
    },
  ];
}

/** Refuses a parsed body nested too deeply before any recursive code (validation, request hashes) walks it. */
function refuseDeepJson(req: Request, res: Response, next: NextFunction): void {
  if (!nestsDeeperThan(req.body, MAX_JSON_DEPTH)) return next();
  const error = new ApiError('invalid_body', 'The request body could not be read.', {
    details: `JSON may nest at most ${MAX_JSON_DEPTH} levels of objects and arrays`,
  });
  res.status(error.status).json(renderError(error, req.id));
}

interface ParserError {
  type?: string;
  message?: string;
  status?: number;
  code?: string;
}

function isClientReadError(e: ParserError | undefined): e is ParserError {
  return typeof e?.status === 'number' && e.status >= 400 && e.status < 500;
}

/** What went wrong, in words that name no internals: zlib's codes say the compressed bytes were bad. */
function bodyReadDetail(e: ParserError): string {
  if (e.code?.startsWith('Z_') || e.code?.startsWith('ERR_BROTLI') || e.code?.startsWith('ERR__'))
    return 'the body does not decompress with its Content-Encoding';
  if (e.type === 'request.size.invalid') return 'the body is shorter or longer than its Content-Length';
  if (e.type === 'request.aborted') return 'the client stopped sending the body';
  return 'the body could not be read';
}
