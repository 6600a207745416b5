import type { WithLastResponse } from './response';

/** One page of a cursor list: `next_cursor` goes in `starting_after` for the next. */
export interface Page<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

/**
 * What a list method answers: await it for the first page (with its `lastResponse`), or iterate it with
 * `for await` for every item across pages (each next page is fetched when the previous one is used up, from its
 * `next_cursor`).
 */
export class PagePromise<T> implements PromiseLike<WithLastResponse<Page<T>>>, AsyncIterable<T> {
  private first: Promise<WithLastResponse<Page<T>>> | undefined;

  constructor(
    private readonly fetchPage: (startingAfter: string | undefined) => Promise<WithLastResponse<Page<T>>>,
    private readonly startingAfter?: string,
  ) {}

  private firstPage(): Promise<WithLastResponse<Page<T>>> {
    this.first ??= this.fetchPage(this.startingAfter);
    return this.first;
  }

  then<A = WithLastResponse<Page<T>>, B = never>(
    onfulfilled?: ((value: WithLastResponse<Page<T>>) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.firstPage().then(onfulfilled, onrejected);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    let page = await this.firstPage();
    for (;;) {
      yield* page.data;
      if (!page.has_more || !page.next_cursor) return;
      page = await this.fetchPage(page.next_cursor);
    }
  }

  /** Every item of every page, in order (for small lists: it holds them all). */
  async toArray(): Promise<T[]> {
    const all: T[] = [];
    for await (const item of this) all.push(item);
    return all;
  }
}
