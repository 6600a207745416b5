/**
 * The part of negotiator 1.x the web apps use. @types/negotiator describes 0.6, which has no `preferred` order for
 * codings that the client weighs alike.
 */
declare module 'negotiator' {
  import type { IncomingHttpHeaders } from 'node:http';

  class Negotiator {
    constructor(request: { headers: IncomingHttpHeaders });
    /** The acceptable codings of `available`, best first; identity is acceptable unless refused. */
    encodings(available?: string[], options?: { preferred?: string[] }): string[];
  }
  export = Negotiator;
}
