import { createContext, useContext, useId, useState, type ReactNode } from 'react';
import { toApiError } from './errors';
import { useI18n } from './i18n';
import type { AsyncState } from './use-async';

/**
 * Whether ErrorNotice folds the technical part of a failure (its code, the request id, the API's own message and
 * the field problems, all in the API's English) under a "Details" toggle. The worker app does: a worker needs the
 * words, and support needs the rest, which the worker can open and read out. The console, whose users build
 * against the API, shows it all (the default).
 */
export const FoldErrorDetails = createContext(false);

/**
 * Any failure, in words: the words for the code in the person's language when the app has them, otherwise the API's
 * own message (or, folded, a general sentence); then the field problems of a validation error and the code with the
 * request id, shown or under "Details" (FoldErrorDetails); never a raw object or stack.
 */
export function ErrorNotice(props: { error: unknown; onRetry?: () => void }) {
  const { t, has } = useI18n();
  const fold = useContext(FoldErrorDetails);
  const error = toApiError(props.error);
  const key = `error.${error.code}`;
  const vars: Record<string, string | number> = { distance: '?', current_status: '?' };
  for (const [name, value] of Object.entries(error.extra)) {
    if (typeof value === 'string' || typeof value === 'number') vars[name] = value;
  }
  if (typeof error.extra.distance_meters === 'number')
    vars.distance = Math.round(error.extra.distance_meters);
  const words = has(key) ? t(key, vars) : null;
  const technical = (
    <>
      {fold && !words && <p>{error.message}</p>}
      {error.details.length > 0 && (
        <ul className="error-fields">
          {error.details.map((d) => (
            <li key={`${d.field}:${d.message}`}>
              <strong>{d.field}</strong>: {d.message}
            </li>
          ))}
        </ul>
      )}
      <p className="error-code">
        {t('common.error_code', { code: error.code })}
        {error.requestId ? ` · ${t('common.request_id', { id: error.requestId })}` : ''}
      </p>
    </>
  );
  return (
    <div className="error" role="alert">
      <p className="error-words">{words ?? (fold ? t('common.error_unknown') : error.message)}</p>
      {fold ? <Details label={t('common.details')}>{technical}</Details> : technical}
      {props.onRetry && (
        <button type="button" className="secondary" onClick={props.onRetry}>
          {t('common.retry')}
        </button>
      )}
    </div>
  );
}

/** A disclosure: a button that shows or hides what follows it (aria-expanded tells a screen reader which). */
function Details(props: { label: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <>
      <button
        type="button"
        className="details-toggle"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
      >
        {props.label}
      </button>
      <div id={id} className="error-details" hidden={!open}>
        {props.children}
      </div>
    </>
  );
}

export function Loading(props: { label?: string }) {
  const { t } = useI18n();
  return (
    <p className="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {props.label ?? t('common.loading')}
    </p>
  );
}

export function Empty(props: { children: ReactNode }) {
  return (
    <p className="empty" role="status">
      {props.children}
    </p>
  );
}

/**
 * The state of what a screen loads, before its content: the error with a retry, the spinner until the first answer,
 * or, for a list (`count` and `empty`), the empty message when the answer has no rows. The screen renders its
 * content itself when there is some.
 */
export function ListState<T>(props: {
  state: AsyncState<T>;
  count?: (data: T) => number;
  empty?: ReactNode;
}) {
  const { state } = props;
  if (state.error) return <ErrorNotice error={state.error} onRetry={() => void state.reload()} />;
  if (state.data === undefined) return <Loading />;
  return props.count?.(state.data) === 0 ? <Empty>{props.empty}</Empty> : null;
}

/** A screen's button that loads its data again, disabled while a request is running. */
export function ReloadButton<T>(props: { state: AsyncState<T>; children: ReactNode }) {
  return (
    <button
      type="button"
      className="secondary"
      onClick={() => void props.state.reload()}
      disabled={props.state.loading}
    >
      {props.children}
    </button>
  );
}
