import type { FormValues } from '../shared/answer-form';
import type { Fix } from './geo';

/**
 * The worker's answers to a schema task, kept in IndexedDB per assignment so a reload, a closed tab or a lost
 * connection loses nothing: photos are stored as Blobs (IndexedDB keeps them; localStorage could not). `waiting`
 * marks a draft whose sending failed for want of a connection: the form sends it when the connection returns.
 */
export interface AnswerDraft {
  assignmentId: string;
  values: FormValues;
  /** Photos already uploaded (a retry does not upload them again). */
  photoUrls: Record<string, string>;
  notes: string;
  /** The phone's fix read when a photo was taken. */
  fix: Fix | null;
  waiting: boolean;
}

const DB = 'legwork-answers';
const STORE = 'drafts';

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: 'assignmentId' });
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('indexedDB unavailable'));
  });
}

async function run<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await open();
  try {
    return await new Promise<T>((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const req = work(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(req.result);
      tx.onerror = () => reject(tx.error ?? new Error('indexedDB transaction failed'));
    });
  } finally {
    db.close();
  }
}

export async function loadDraft(assignmentId: string): Promise<AnswerDraft | null> {
  const found = await run<AnswerDraft | undefined>('readonly', (s) => s.get(assignmentId));
  return found ?? null;
}

export async function saveDraft(draft: AnswerDraft): Promise<void> {
  await run('readwrite', (s) => s.put(draft));
}

export async function dropDraft(assignmentId: string): Promise<void> {
  await run('readwrite', (s) => s.delete(assignmentId));
}
