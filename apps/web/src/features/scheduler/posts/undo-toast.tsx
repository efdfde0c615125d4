import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { XIcon } from '../../../components/ui/icons.tsx';
import { UndoIcon } from '../components/icons.tsx';

/** How long a cancel can be undone from the toast. */
export const UNDO_MS = 10_000;

/**
 * 'Publication annulée. [Rétablir]' at the bottom of the screen for 10 s. The time stops while
 * the pointer or the focus is on it (WCAG 2.2.1: nobody loses the undo while reaching for it).
 * Rendered inside a live region that is always there, so the message is announced.
 *
 * Focus: the row whose 'Annuler' opened the confirmation is gone once the post is cancelled, so
 * the confirmation cannot give focus back to it; focus goes to the undo button instead (the next
 * thing one may want), and to the page's main region when the toast closes from inside. With the
 * focus on it, the toast stays (its time is paused) until the person moves on or dismisses it.
 */
export function UndoToast({
  undo,
  onUndo,
  onExpire,
}: {
  /** What can be undone (null: no toast); a new value starts a new 10 s. */
  undo: { id: string; caption: string } | null;
  onUndo: () => void;
  onExpire: () => void;
}) {
  const { t } = useTranslation();
  const [paused, setPaused] = useState(false);
  const left = useRef(UNDO_MS);
  const toastRef = useRef<HTMLDivElement>(null);
  const undoRef = useRef<HTMLButtonElement>(null);
  const id = undo?.id ?? null;

  useEffect(() => {
    left.current = UNDO_MS;
    if (id !== null) undoRef.current?.focus();
  }, [id]);

  /** Closes the toast; focus inside it would be lost with it, so it goes to the main region. */
  const closing = (action: () => void) => () => {
    const hadFocus = toastRef.current?.contains(document.activeElement) ?? false;
    action();
    if (hadFocus) document.getElementById('main')?.focus();
  };

  useEffect(() => {
    if (id === null || paused) return;
    const started = Date.now();
    const timer = setTimeout(onExpire, left.current);
    return () => {
      clearTimeout(timer);
      left.current = Math.max(0, left.current - (Date.now() - started));
    };
  }, [id, paused, onExpire]);

  return (
    <div
      aria-live="polite"
      className="pointer-events-none fixed inset-x-0 bottom-4 z-40 flex justify-center px-4"
    >
      {undo && (
        <div
          className="pointer-events-auto flex w-full max-w-sm items-center gap-3 rounded-xl bg-slate-900 py-2.5 pl-4 pr-2 text-sm text-white shadow-xl"
          data-testid="undo-toast"
          ref={toastRef}
          onMouseEnter={() => setPaused(true)}
          onMouseLeave={() => setPaused(false)}
          onFocus={() => setPaused(true)}
          onBlur={() => setPaused(false)}
        >
          <p className="min-w-0 flex-1">{t('scheduler.undo.message')}</p>
          <button
            ref={undoRef}
            type="button"
            onClick={closing(onUndo)}
            aria-label={t('scheduler.undo.actionLabel', { caption: undo.caption })}
            className="inline-flex shrink-0 items-center gap-1.5 rounded-lg px-2.5 py-1.5 font-semibold text-brand-300 hover:bg-white/10"
          >
            <UndoIcon className="h-4 w-4" />
            {t('scheduler.undo.action')}
          </button>
          <button
            type="button"
            onClick={closing(onExpire)}
            aria-label={t('scheduler.undo.dismiss')}
            className="shrink-0 rounded-lg p-1.5 text-slate-400 hover:bg-white/10 hover:text-white"
          >
            <XIcon className="h-4 w-4" />
          </button>
        </div>
      )}
    </div>
  );
}
