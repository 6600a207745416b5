import express, { type NextFunction, type Request, type Response } from 'express';
import { ApiError } from '../errors/api-error';
import { renderError } from '../errors/all-exceptions.filter';

/** JSON bodies up to this size; uploads use multipart and have their own limits. */
const JSON_LIMIT = '256kb';

/**
 * JSON and form body parsers that keep the raw bytes (payment providers sign the raw body), followed by an error
 * handler that turns parser failures into the error envelope: malformed JSON is 400 invalid_json.
 */
export function bodyParsing() {
  const keepRaw = (req: Request, _res: Response, buf: Buffer): void => {
    req.rawBody = buf;
  };
  return [
    express.json({ limit: JSON_LIMIT, verify: keepRaw, strict: false }),
    express.urlencoded({ extended: false, limit: JSON_LIMIT, verify: keepRaw }),
    express.text({ type: 'text/plain', limit: JSON_LIMIT, verify: keepRaw }),
    (err: unknown, req: Request, res: Response, next: NextFunction): void => {
      const e = err as { type?: string; message?: string };
      let error: ApiError | null = null;
      if (e?.type === 'entity.parse.failed') {
        error = new ApiError('invalid_json', 'The request body is not valid JSON.', {
          details: e.message ?? 'malformed JSON',
        });
      } else if (e?.type === 'entity.too.large') {
        error = new ApiError('payload_too_large', `The request body exceeds ${JSON_LIMIT}.`);
      } else if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported') {
        error = new ApiError('unsupported_media_type', 'Unsupported body encoding or charset.');
      }
      if (!error) return next(err);
      res.status(error.status).json(renderError(error, req.id));
    },
  ];
}
