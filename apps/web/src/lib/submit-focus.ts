import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';

/**
 * Where keyboard focus goes once a submit has settled, inside `container` (the form, or the block
 * holding the form and its message): the first invalid field (aria-invalid, its message tied by
 * aria-describedby), else the error message (role alert); else it stays where it is when it is
 * still in the block (the submit button: see Button's `pending`), else the message that replaced
 * what held it (role status: a form that closed or gave way to 'sent'), else the submit button.
 * Never <body>, where a screen reader or a keyboard would start again from the top.
 */
export function focusSubmitOutcome(container: HTMLElement): void {
  const problem = container.querySelector<HTMLElement>('[aria-invalid="true"], [role="alert"]');
  if (problem) {
    problem.focus();
    return;
  }
  const active = document.activeElement;
  if (active !== null && active !== container && container.contains(active)) return;
  const landing =
    container.querySelector<HTMLElement>('[role="status"]') ??
    container.querySelector<HTMLElement>('button[type="submit"]:not(:disabled)');
  landing?.focus();
}

/**
 * The form's side of `focusSubmitOutcome`: put `container` on the block, call `settled()` when a
 * submit is refused (by the form or by the server) or has succeeded; focus moves once React has
 * drawn the outcome.
 */
export function useSubmitFocus<TContainer extends HTMLElement>(): {
  container: RefObject<TContainer | null>;
  settled: () => void;
} {
  const container = useRef<TContainer>(null);
  const [settledCount, setSettledCount] = useState(0);
  useEffect(() => {
    if (settledCount > 0 && container.current) focusSubmitOutcome(container.current);
  }, [settledCount]);
  const settled = useCallback(() => setSettledCount((count) => count + 1), []);
  return { container, settled };
}
