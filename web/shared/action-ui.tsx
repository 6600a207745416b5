import type { ReactNode } from 'react';
import { ErrorNotice } from './ui';
import type { Action } from './use-action';

/** A button that runs an action (useAction), disabled while it (or another run of the same action) is busy. */
export function ActionButton(props: {
  action: Action;
  onClick: () => Promise<void>;
  className?: string;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={props.className}
      disabled={props.action.busy || props.disabled}
      onClick={() => void props.action.run(props.onClick)}
    >
      {props.children}
    </button>
  );
}

/** The action's last failure in words (ErrorNotice), or nothing. */
export function ActionError({ action }: { action: Action }) {
  return action.error ? <ErrorNotice error={action.error} /> : null;
}

/** A confirmation's two buttons: the dangerous action (run through `action`) and the way back. */
export function ConfirmButtons(props: {
  action: Action;
  onConfirm: () => Promise<void>;
  confirm: ReactNode;
  onCancel: () => void;
  cancel: ReactNode;
}) {
  return (
    <>
      <ActionButton action={props.action} className="danger" onClick={props.onConfirm}>
        {props.confirm}
      </ActionButton>
      <button type="button" className="secondary" onClick={props.onCancel}>
        {props.cancel}
      </button>
    </>
  );
}
