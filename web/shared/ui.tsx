import type { ReactNode } from 'react';
import { toApiError } from './errors';
import { useI18n } from './i18n';
import type { AsyncState } from './use-async';

/**
 * Any failure, in words and with its code: the words for the code in the person's language when the app has them,
 * otherwise the API's own message; the field problems of a validation error; never a raw object or stack.
 */
export function ErrorNotice(props: { error: unknown; onRetry?: () => void }) {
  const { t, has } = useI18n();
  const error = toApiError(props.error);
  const key = `error.${error.code}`;
  const vars: Record<string, string | number> = { distance: '?', current_status: '?' };
  for (const [name, value] of Object.entries(error.extra)) {
    if (typeof value === 'string' || typeof value === 'number') vars[name] = value;
  }
  if (typeof error.extra.distance_meters === 'number')
    vars.distance = Math.round(error.extra.distance_meters);
  return (
    <div className="error" role="alert">
      <p className="error-words">{has(key) ? t(key, vars) : error.message}</p>
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
      {props.onRetry && (
        <button type="button" className="secondary" onClick={props.onRetry}>
          {t('common.retry')}
        </button>
      )}
    </div>
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
