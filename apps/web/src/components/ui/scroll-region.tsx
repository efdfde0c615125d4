import { useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * A box that scrolls on its own (a long table, a wide heatmap). While its content overflows it
 * is a focusable, named region, so a keyboard can scroll it too; otherwise it is a plain box.
 */
export function ScrollRegion({
  label,
  className,
  children,
}: {
  label: string;
  className: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () =>
      setOverflows(
        element.scrollHeight > element.clientHeight || element.scrollWidth > element.clientWidth,
      );
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    for (const child of element.children) observer.observe(child);
    return () => observer.disconnect();
  }, []);
  return (
    <div
      ref={ref}
      className={className}
      tabIndex={overflows ? 0 : undefined}
      role={overflows ? 'region' : undefined}
      aria-label={overflows ? label : undefined}
    >
      {children}
    </div>
  );
}
