import { useCallback, useState, type FormEvent } from 'react';

/**
 * One action of a screen (a form's submit, a button): busy while it runs, its failure kept for ErrorNotice, the
 * previous failure cleared when it starts again.
 */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = useCallback(async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }, []);
  const onSubmit = (work: () => Promise<void>) => (e: FormEvent) => {
    e.preventDefault();
    void run(work);
  };
  return { busy, error, setError, run, onSubmit };
}

export type Action = ReturnType<typeof useAction>;
