import { useState } from 'react';
import { useI18n } from './i18n';

/** The words Pager looks up; an app that shows a pager has them in its catalogues. */
export type PagerKey = 'pager.label' | 'pager.prev' | 'pager.next' | 'pager.range';

/** Previous and Next for a paged list, with "21–40 of 57" when the API counts the rows. */
export function Pager(props: {
  from?: number;
  to?: number;
  total?: number;
  onPrev?: () => void;
  onNext?: () => void;
}) {
  const { t } = useI18n();
  return (
    <nav className="row pager" aria-label={t('pager.label')}>
      <button type="button" className="secondary" disabled={!props.onPrev} onClick={props.onPrev}>
        {t('pager.prev')}
      </button>
      {props.total !== undefined && (
        <span className="muted">
          {t('pager.range', { from: props.from ?? 0, to: props.to ?? 0, total: props.total })}
        </span>
      )}
      <button type="button" className="secondary" disabled={!props.onNext} onClick={props.onNext}>
        {t('pager.next')}
      </button>
    </nav>
  );
}

/**
 * The pages of a list the API pages by cursor: the cursor of the page on view and a stack of the ones before it, for
 * Previous. `reset` returns to the first page (a filter changed); `next(page)` is Next's action, when there is one.
 */
export function useCursorPages() {
  const [cursors, setCursors] = useState<string[]>([]);
  return {
    cursor: cursors[cursors.length - 1] as string | undefined,
    onFirstPage: cursors.length === 0,
    reset: () => setCursors([]),
    prev: cursors.length > 0 ? () => setCursors(cursors.slice(0, -1)) : undefined,
    next: (page: { has_more: boolean; next_cursor: string | null }) => {
      const after = page.next_cursor;
      return page.has_more && after ? () => setCursors([...cursors, after]) : undefined;
    },
  };
}

/**
 * The pages of a list the API pages by offset (`skip`, `limit`): `reset` returns to the first page (a filter
 * changed); `pager(rows, page)` is Pager's props for the page on view.
 */
export function useOffsetPages(size: number) {
  const [skip, setSkip] = useState(0);
  return {
    skip,
    limit: size,
    reset: () => setSkip(0),
    pager: (rows: number, page: { total: number; has_more: boolean }) => ({
      from: skip + 1,
      to: skip + rows,
      total: page.total,
      onPrev: skip > 0 ? () => setSkip(Math.max(0, skip - size)) : undefined,
      onNext: page.has_more ? () => setSkip(skip + size) : undefined,
    }),
  };
}
