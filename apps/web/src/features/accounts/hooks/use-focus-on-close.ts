import { useEffect, useRef } from 'react';

/**
 * Gives the focus back to the control that opened something (put the returned ref on it) once
 * `open` turns false.
 */
export function useFocusOnClose<TElement extends HTMLElement>(open: boolean) {
  const opener = useRef<TElement>(null);
  const wasOpen = useRef(false);
  useEffect(() => {
    if (wasOpen.current && !open) opener.current?.focus();
    wasOpen.current = open;
  }, [open]);
  return opener;
}
