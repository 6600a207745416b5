import { useEffect, useRef } from 'react';

/**
 * A native <dialog> shown as a modal while `open` holds: showModal() moves the focus into it and makes the page
 * behind it inert, close() gives the focus back to what opened it. Returns the ref to put on the <dialog>.
 */
export function useModalDialog(open: boolean) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = dialog.current;
    if (open && d && !d.open) d.showModal();
    if (!open && d?.open) d.close();
  }, [open]);
  return dialog;
}
