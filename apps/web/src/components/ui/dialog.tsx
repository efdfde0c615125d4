import { useEffect, useId, useRef, type ReactNode, type RefObject } from 'react';
import { XIcon } from './icons.tsx';

/**
 * The open dialogs, the last opened last: only that one answers Escape and keeps Tab inside it,
 * so a question asked over a dialog (closing the composer during an upload) closes alone.
 */
const openDialogs: object[] = [];

const FOCUSABLE =
  'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * While `open`: moves the focus into the panel, closes on Escape, keeps Tab inside the panel and
 * the page behind from scrolling; on close gives the focus back to where it was.
 */
function useModalFocus(
  open: boolean,
  onClose: () => void,
  panelRef: RefObject<HTMLDivElement | null>,
) {
  // The latest handler, read when used: a new onClose each render must not re-run the effect
  // below, which would move the focus back to the first control.
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    if (!open) return;
    const self = {};
    openDialogs.push(self);
    const previouslyFocused =
      document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const panel = panelRef.current;
    const focusable = () => (panel ? [...panel.querySelectorAll<HTMLElement>(FOCUSABLE)] : []);
    (focusable()[0] ?? panel)?.focus();
    function onKeyDown(event: KeyboardEvent) {
      if (openDialogs.at(-1) !== self) return;
      // A control inside that handled Escape itself (an open picker) prevents its default.
      if (event.key === 'Escape' && !event.defaultPrevented) {
        event.preventDefault();
        onCloseRef.current();
        return;
      }
      if (event.key === 'Tab') keepTabInside(event, focusable());
    }
    document.addEventListener('keydown', onKeyDown);
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      openDialogs.splice(openDialogs.indexOf(self), 1);
      document.removeEventListener('keydown', onKeyDown);
      document.body.style.overflow = overflow;
      previouslyFocused?.focus();
    };
  }, [open, panelRef]);
}

/** Wraps Tab from the last control to the first, and Shift+Tab from the first to the last. */
function keepTabInside(event: KeyboardEvent, items: HTMLElement[]) {
  const first = items[0];
  const last = items.at(-1);
  if (!first || !last) return;
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}

/** The dialog's title bar: its title, an optional description and the close button. */
function DialogHeader({
  titleId,
  title,
  descriptionId,
  description,
  onClose,
  closeLabel,
}: {
  titleId: string;
  title: string;
  descriptionId: string;
  description?: string;
  onClose: () => void;
  closeLabel: string;
}) {
  return (
    <div className="flex items-start justify-between gap-4 border-b border-slate-100 px-6 py-5">
      <div className="min-w-0">
        <h2 id={titleId} className="break-words text-lg font-semibold text-slate-900">
          {title}
        </h2>
        {description && (
          <p id={descriptionId} className="mt-1 break-words text-sm text-slate-500">
            {description}
          </p>
        )}
      </div>
      <button
        type="button"
        onClick={onClose}
        aria-label={closeLabel}
        className="-mr-2 rounded-lg p-2 text-slate-500 hover:bg-slate-100 hover:text-slate-700"
      >
        <XIcon className="h-5 w-5" />
      </button>
    </div>
  );
}

/**
 * A modal dialog: labelled by its title, closes on Escape and on a click outside, keeps focus
 * inside while open and gives it back when closed. `variant="slide-over"` docks it to the right.
 * Another dialog may open over it (render it after this one).
 */
export function Dialog({
  open,
  onClose,
  title,
  description,
  children,
  footer,
  variant = 'center',
  closeLabel,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: string;
  children: ReactNode;
  footer?: ReactNode;
  variant?: 'center' | 'slide-over';
  closeLabel: string;
}) {
  const titleId = useId();
  const descriptionId = useId();
  const panelRef = useRef<HTMLDivElement>(null);
  useModalFocus(open, onClose, panelRef);

  if (!open) return null;
  const slideOver = variant === 'slide-over';
  return (
    <div className="fixed inset-0 z-50">
      {/* The overlay is a click target only; keyboard users close with Escape or the close button. */}
      <div
        className="absolute inset-0 bg-slate-950/50 backdrop-blur-[2px]"
        data-testid="dialog-overlay"
        aria-hidden="true"
        onClick={onClose}
      />
      <div
        className={
          slideOver
            ? 'pointer-events-none absolute inset-y-0 right-0 flex max-w-full'
            : 'pointer-events-none absolute inset-0 flex items-center justify-center p-4'
        }
      >
        <div
          ref={panelRef}
          role="dialog"
          aria-modal="true"
          aria-labelledby={titleId}
          aria-describedby={description ? descriptionId : undefined}
          tabIndex={-1}
          className={
            slideOver
              ? 'pointer-events-auto flex h-full w-screen max-w-xl flex-col bg-white shadow-2xl'
              : 'pointer-events-auto flex max-h-[90vh] w-full max-w-md flex-col rounded-2xl bg-white shadow-2xl'
          }
        >
          <DialogHeader
            titleId={titleId}
            title={title}
            descriptionId={descriptionId}
            description={description}
            onClose={onClose}
            closeLabel={closeLabel}
          />
          <div className="flex-1 overflow-y-auto px-6 py-5">{children}</div>
          {footer && (
            <div className="flex justify-end gap-3 border-t border-slate-100 px-6 py-4">
              {footer}
            </div>
          )}
        </div>
      </div>
    </div>
  );
}
