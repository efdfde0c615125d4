/**
 * Where focus goes when a screen opens after a navigation (app/route-focus.ts): the message it
 * opens with when it has one (`arrival`: what just happened elsewhere, e.g. 'your account was
 * deleted', 'TikTok account connected'), else its main heading, else its main region. Made
 * focusable by script only (tabindex -1), so a screen reader reads it and Tab goes on from there.
 * False when the screen is not drawn yet (no main region: the session is still being checked).
 */
export function focusScreen(): boolean {
  const target =
    document.querySelector<HTMLElement>('[data-arrival]') ??
    document.querySelector<HTMLElement>('main h1') ??
    document.querySelector<HTMLElement>('main');
  if (!target) return false;
  if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.focus();
  return true;
}

/** How long a screen may take to be drawn before its focus is given up on. */
const DRAW_WAIT_MS = 10_000;

/**
 * `focusScreen` now, or as soon as the screen is drawn, unless the person has put the focus
 * somewhere meanwhile. Returns what stops waiting (the next navigation).
 */
export function focusScreenWhenDrawn(): () => void {
  if (focusScreen()) return () => undefined;
  const observer = new MutationObserver(() => {
    const active = document.activeElement;
    if ((active !== null && active !== document.body) || focusScreen()) stop();
  });
  const timer = setTimeout(stop, DRAW_WAIT_MS);
  function stop() {
    observer.disconnect();
    clearTimeout(timer);
  }
  observer.observe(document.body, { childList: true, subtree: true });
  return stop;
}

/** Whether the screen opened with a message about what just happened (see focusScreen). */
export const hasArrivalMessage = (): boolean => document.querySelector('[data-arrival]') !== null;
