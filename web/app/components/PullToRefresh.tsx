import { useRef, useState, type ReactNode } from 'react';
import { useWords } from '../messages';

const THRESHOLD = 70;

/**
 * Pull down at the top of the list to reload it, as phone apps do. Touch only; the screen also has a Refresh
 * button for keyboards, screen readers and desktops.
 */
export function PullToRefresh(props: { onRefresh: () => Promise<void>; children: ReactNode }) {
  const { t } = useWords();
  const start = useRef<number | null>(null);
  const [pull, setPull] = useState(0);
  return (
    <div
      onTouchStart={(e) => {
        start.current = window.scrollY <= 0 ? e.touches[0].clientY : null;
      }}
      onTouchMove={(e) => {
        if (start.current !== null) setPull(Math.max(0, Math.min(120, e.touches[0].clientY - start.current)));
      }}
      onTouchEnd={() => {
        if (pull >= THRESHOLD) void props.onRefresh();
        start.current = null;
        setPull(0);
      }}
    >
      <div className="pull" style={{ height: pull / 2 }} aria-hidden="true">
        {pull >= THRESHOLD ? t('tasks.release') : t('tasks.pull')}
      </div>
      {props.children}
    </div>
  );
}
