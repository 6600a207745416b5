import { PATH_METADATA } from '@nestjs/common/constants';
import { ApiResponse, DECORATORS } from '@nestjs/swagger';
import { CodesWithStatus, ERROR_CODE_LIST, ErrorCode, ERRORS, ErrorStatus } from './error-catalog';
import { ErrorEnvelope } from './error-envelope.dto';

/** The errors an operation can answer, by status: a code under a status it is not answered with does not compile. */
export type ErrorsByStatus = { [S in ErrorStatus]?: readonly CodesWithStatus<S>[] };
/** A fact about a code that is particular to the operation (the permission it needs), appended to its summary. */
export type ErrorNotes = { [C in ErrorCode]?: string };

/**
 * Where each code's entry lives, relative to the OpenAPI document: from `openapi/openapi.json` in the repository
 * it is `docs/errors.md`, and from the interactive docs at `/docs` it is `/docs/errors.md`, which the app serves
 * (app.setup.ts), so one link works in both.
 */
export const ERROR_DOCS_URL = '../docs/errors.md';

const API_ERRORS = 'legwork:api-errors';
type Documented = Partial<Record<ErrorCode, string>>;

/**
 * Documents the error responses of a route (or of every route of a controller) from their codes: one response per
 * status, describing each of its codes by its summary and a link to its entry in docs/errors.md. Codes from several
 * decorators on one route (the controller's @Auth and the route's own) add up.
 */
export function ApiErrors(errors: ErrorsByStatus, notes: ErrorNotes = {}): MethodDecorator & ClassDecorator {
  const added: Documented = {};
  for (const code of Object.values(errors).flat() as ErrorCode[]) added[code] = notes[code] ?? '';
  return ((target: object, _key?: string | symbol, descriptor?: PropertyDescriptor) => {
    if (descriptor) {
      documentErrors(descriptor.value as object, added);
      return descriptor;
    }
    for (const handler of routeHandlers(target as { prototype: object })) documentErrors(handler, added);
    return target;
  }) as MethodDecorator & ClassDecorator;
}

/** The codes documented on a route handler, in catalogue order. */
export function documentedErrors(handler: object): ErrorCode[] {
  const documented = documentedOn(handler);
  return ERROR_CODE_LIST.filter((c) => c in documented);
}

/** The description of one status's response: its codes as a list of links with their summaries. */
export function describeErrors(codes: readonly ErrorCode[], notes: ErrorNotes = {}): string {
  return codes
    .map((c) => `- [\`${c}\`](${ERROR_DOCS_URL}#${c}): ${ERRORS[c].summary}${notes[c] ? ` ${notes[c]}` : ''}`)
    .join('\n');
}

function documentedOn(handler: object): Documented {
  return (Reflect.getMetadata(API_ERRORS, handler) as Documented | undefined) ?? {};
}

function documentErrors(handler: object, added: Documented): void {
  const documented = { ...documentedOn(handler), ...added };
  Reflect.defineMetadata(API_ERRORS, documented, handler);
  const codes = documentedErrors(handler);
  // Each status's response is rewritten from all its codes (@nestjs/swagger would append a second description).
  const statuses = [...new Set(codes.map((c) => ERRORS[c].status))];
  const responses = { ...(Reflect.getMetadata(DECORATORS.API_RESPONSE, handler) as object | undefined) };
  for (const status of statuses) delete (responses as Record<number, unknown>)[status];
  Reflect.defineMetadata(DECORATORS.API_RESPONSE, responses, handler);
  for (const status of statuses) {
    const description = describeErrors(
      codes.filter((c) => ERRORS[c].status === status),
      documented,
    );
    ApiResponse({ status, type: ErrorEnvelope, description })({}, '', { value: handler });
  }
}

/** The route handlers a controller declares (methods carrying a route path). */
function routeHandlers(controller: { prototype: object }): object[] {
  const proto = controller.prototype as Record<string, unknown>;
  return Object.getOwnPropertyNames(proto)
    .map((name) => proto[name])
    .filter((fn): fn is object => typeof fn === 'function' && Reflect.hasMetadata(PATH_METADATA, fn));
}
