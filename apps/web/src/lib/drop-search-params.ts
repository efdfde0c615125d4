import { useEffect } from 'react';
import { useLocation, useSearchParams } from 'react-router';

/**
 * Removes `names` from the address once the screen has read them (replace, not push), so a reload
 * or a Back does not act on them again; the other parameters (a list's filters) stay.
 *
 * Only while the browser is still at the address the screen was drawn for. The router changes the
 * address first and React draws the screen after (in a transition, once its code and data are in),
 * so a person can already have gone Back when this runs: replacing then would rewrite the entry
 * they went back to (/tiktok) into this screen's (/scheduler), and a reload would open the wrong
 * screen (e2e/accounts.e2e.ts caught it on /scheduler?account=…).
 */
export function useDropSearchParams(names: readonly string[]): void {
  const [searchParams, setSearchParams] = useSearchParams();
  const { pathname, search } = useLocation();
  useEffect(() => {
    if (!names.some((name) => searchParams.has(name))) return;
    if (window.location.pathname !== pathname || window.location.search !== search) return;
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const name of names) next.delete(name);
        return next;
      },
      { replace: true },
    );
  }, [names, pathname, search, searchParams, setSearchParams]);
}
