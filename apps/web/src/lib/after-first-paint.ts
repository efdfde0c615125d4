import { useEffect, useState } from 'react';

/** Set once the page's first screen has been painted; screens opened afterwards start at once. */
let painted = false;

/**
 * False until the page's first screen has been painted, then true. For the work a first screen
 * does not show — the live event stream, the bell's list, the verification banner's setting —
 * so that it leaves after the screen's scripts and requests instead of sharing a phone's
 * connection with them and holding up the largest paint (docs/decisions/057-after-first-paint.md).
 * The paint is the frame after the commit; the task after that frame runs once it is on screen.
 * Without frames (a test's DOM, a tab in the background) a timer stands in.
 */
export function useAfterFirstPaint(): boolean {
  const [done, setDone] = useState(painted);
  useEffect(() => {
    if (done) return;
    const mark = () => {
      painted = true;
      setDone(true);
    };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frames =
      typeof requestAnimationFrame === 'function' && document.visibilityState === 'visible';
    const frame = frames ? requestAnimationFrame(() => (timer = setTimeout(mark, 0))) : undefined;
    if (!frames) timer = setTimeout(mark, 0);
    return () => {
      if (frame !== undefined) cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [done]);
  return done;
}
