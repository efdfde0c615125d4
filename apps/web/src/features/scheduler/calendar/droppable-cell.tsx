import type { ComponentPropsWithoutRef } from 'react';
import { useSlotDroppable } from './calendar-dnd.tsx';

type DivProps = Omit<ComponentPropsWithoutRef<'div'>, 'className'>;

export interface DroppableCellProps extends DivProps {
  date: string;
  /** The week view's hour of the day; none: the whole day (the post keeps its time). */
  hour?: number;
  /** Announced while a post is dragged over it ('lundi 23 novembre 2026, 09:00'). */
  label: string;
  className: string;
  /** The cell's background when nothing is over it (a past day recedes). */
  idleClassName?: string;
  /** Its look while a post is over it. */
  overClassName?: string;
}

const overDefault = 'bg-brand-50 ring-2 ring-inset ring-brand-400';

/**
 * A day (month view, a phone's week list) or an hour of a day (week view) where a pending post
 * may be dropped, highlighted while one is over it: the one place the views wire a drop target.
 * The hook lives here and not in the day: dnd-kit re-renders every target each time one registers
 * (a month mounts 35 to 42), and this re-renders only the cell's box, its contents (the same
 * elements) are skipped.
 */
export function DroppableCell({
  date,
  hour,
  label,
  className,
  idleClassName = '',
  overClassName = overDefault,
  children,
  ...rest
}: DroppableCellProps) {
  const { setNodeRef, isOver } = useSlotDroppable(date, label, hour);
  return (
    <div
      ref={setNodeRef}
      className={`${className} ${isOver ? overClassName : idleClassName}`}
      {...rest}
    >
      {children}
    </div>
  );
}
