import { createContext, useContext, useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { focusScreenWhenDrawn, hasArrivalMessage } from '../lib/screen-focus.ts';

/**
 * True when the router's first screen is not the page's first: the sign-in screen, loaded without
 * the router, hands over to it after signing in or up (main.tsx, router.tsx's createApp).
 */
export const HandedOverContext = createContext(false);

/**
 * Moves focus to the new screen (lib/screen-focus.ts) when the route changes, so a screen reader
 * announces it: without this, focus stayed on <body> (after signing up, after coming back from
 * TikTok's consent page). Not on the page's first screen, which the browser announces itself,
 * unless the router took over from the sign-in screen or the screen opens with a message about
 * what just happened (TikTok's consent page sends the person back to a fresh page). Not when only
 * the query changes (filters). And not when focus is already inside the new screen: the screen put
 * it somewhere on purpose (a post a link asked for), or the person used a control that stays (the
 * scheduler's view tabs).
 */
export function useRouteFocus(): void {
  const { pathname } = useLocation();
  const handedOver = useContext(HandedOverContext);
  const shown = useRef<string | null>(null);
  useEffect(() => {
    if (shown.current === pathname) return;
    const first = shown.current === null;
    shown.current = pathname;
    if (first && !handedOver && !hasArrivalMessage()) return;
    const active = document.activeElement;
    const main = document.querySelector('main');
    if (!first && active !== null && active !== main && main?.contains(active)) return;
    return focusScreenWhenDrawn();
  }, [pathname, handedOver]);
}
