import type { paths } from './generated/openapi';
import { PagePromise, type Page } from './pagination';
import type { Call, RequestOptions, Requester, Verb } from './requester';
import type { WithLastResponse } from './response';

// The types below read an operation's arguments and answer off the generated `paths`, so a method declared as
// `{ verb: 'POST', path: '/v1/tasks/create', body: true }` is typed by the API's document: a path or verb the API
// does not have, a body it does not take (or one it needs and the declaration omits) fails to compile.

/** The /v1 paths that have an operation for this verb. */
export type PathWith<V extends Verb> = {
  [P in keyof paths]: paths[P] extends Record<Lowercase<V>, object> ? P : never;
}[keyof paths];

type Operation<V extends Verb, P extends keyof paths> =
  paths[P] extends Record<Lowercase<V>, infer O> ? O : never;

/** `[id: string]` for a path with one `{placeholder}`, `[]` for none (the table has no path with two). */
type IdArgs<P> = P extends `${string}{${string}}${infer Rest}`
  ? Rest extends `${string}{${string}`
    ? never
    : [id: string]
  : [];

type BodyOf<O> = O extends { requestBody?: infer R }
  ? [NonNullable<R>] extends [never]
    ? never
    : NonNullable<R> extends { content: { 'application/json': infer B } }
      ? B
      : never
  : never;
type QueryOf<O> = O extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
type HasBody<O> = [BodyOf<O>] extends [never] ? false : true;
type HasQuery<O> = [QueryOf<O>] extends [never] ? false : true;

/** The answer's JSON for a 2xx status; an empty object for a 204 with no body. */
type AnswerOf<O> = O extends { responses: infer R }
  ? {
      [S in keyof R & (200 | 201 | 202 | 204)]: R[S] extends { content: { 'application/json': infer J } }
        ? J
        : Record<string, never>;
    }[keyof R & (200 | 201 | 202 | 204)]
  : never;

/**
 * How a method of the table is declared: its verb and path (stripe-node's `stripeMethod({ method, fullPath })`), and
 * `body: true` / `query: true` exactly when the operation takes a JSON body / query parameters, which the types
 * check against the API's document. Whether a call carries an Idempotency-Key follows from the verb: every write does.
 */
export type MethodSpec<V extends Verb, P extends PathWith<V>> = { verb: V; path: P } & (HasBody<
  Operation<V, P>
> extends true
  ? { body: true }
  : { body?: never }) &
  (HasQuery<Operation<V, P>> extends true ? { query: true } : { query?: never });

// `[x: T]`, or `[x?: T]` when every field of T is optional (an omitted body is sent as `{}`); `[]` without one.
type BodySlot<T> = [T] extends [never] ? [] : Partial<T> extends T ? [body?: T] : [body: T];
type QuerySlot<T> = [T] extends [never] ? [] : Partial<T> extends T ? [params?: T] : [params: T];

/** A method of the table: the path's id, then its body or query when it takes one, then per-call options. */
export type Method<V extends Verb, P extends PathWith<V>> = (
  ...args: [
    ...IdArgs<P>,
    ...BodySlot<BodyOf<Operation<V, P>>>,
    ...QuerySlot<QueryOf<Operation<V, P>>>,
    opts?: RequestOptions,
  ]
) => Promise<WithLastResponse<AnswerOf<Operation<V, P>>>>;

/** The item type of a cursor list answered by GET on this path. */
type ItemOf<P extends PathWith<'GET'>> =
  AnswerOf<Operation<'GET', P>> extends { data: (infer I)[] } ? I : never;
type ListQuery<P extends PathWith<'GET'>> = Omit<QueryOf<Operation<'GET', P>>, 'starting_after'> & {
  starting_after?: string;
};

/** A cursor list of the table: the path's ids, then its query; awaited a page, iterated every item. */
export type ListMethod<P extends PathWith<'GET'>> = (
  ...args: [...IdArgs<P>, params?: ListQuery<P>, opts?: RequestOptions]
) => PagePromise<ItemOf<P>>;

const PLACEHOLDER = /\{(\w+)\}/g;

function placeholders(path: string): string[] {
  return [...path.matchAll(PLACEHOLDER)].map((m) => m[1]);
}

/** The parts of a call from a method's arguments, in the order Method's type gives them. */
function callOf(verb: Verb, path: string, input: 'body' | 'query' | undefined, args: unknown[]) {
  const ids = placeholders(path);
  const pathParams = Object.fromEntries(ids.map((name, i) => [name, String(args[i])]));
  const rest = args.slice(ids.length);
  const value = input ? rest.shift() : undefined;
  const call: Call =
    input === 'body'
      ? { verb, path, pathParams, body: value ?? {} }
      : { verb, path, pathParams, query: value as object | undefined };
  return { call, opts: rest[0] as RequestOptions | undefined };
}

/** A group of methods over one client (`legwork.tasks`), each declared from its verb and path. */
export abstract class Resource {
  constructor(protected readonly requester: Requester) {}

  /** Declares a method from the table: one request to `path` with `verb`. */
  protected method<V extends Verb, P extends PathWith<V>>(spec: MethodSpec<V, P>): Method<V, P> {
    const input = spec.body ? 'body' : spec.query ? 'query' : undefined;
    return (...args: unknown[]) => {
      const { call, opts } = callOf(spec.verb, spec.path, input, args);
      return this.requester.send(call, opts);
    };
  }

  /** Declares a cursor list: GET `path` page by page, `starting_after` = the previous page's `next_cursor`. */
  protected pages<P extends PathWith<'GET'>>(spec: { path: P }): ListMethod<P> {
    return (...args: unknown[]) => {
      const { call, opts } = callOf('GET', spec.path, 'query', args);
      const params = (call.query ?? {}) as { starting_after?: string };
      return new PagePromise<ItemOf<P>>(
        (startingAfter) =>
          this.requester.send<Page<ItemOf<P>>>(
            { ...call, query: { ...params, starting_after: startingAfter } },
            opts,
          ),
        params.starting_after,
      );
    };
  }
}
