// Drag and drop of the calendar (dnd-kit, decision record 026): a pending post's chip is a
// draggable, each day (month) or hour of a day (week) a drop target, and a post that can no longer
// move is a target that refuses. Mouse, touch and keyboard (Space, arrows, Space) all work, and
// every step is announced in the interface language.
import type { CalendarPost } from '@cadence/shared/schemas/planning';
import {
  closestCenter,
  DndContext,
  DragOverlay,
  KeyboardSensor,
  MouseSensor,
  pointerWithin,
  TouchSensor,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
  type Announcements,
  type CollisionDetection,
  type DragEndEvent,
  type DragStartEvent,
  type KeyboardCoordinateGetter,
} from '@dnd-kit/core';
import { useState, type ReactNode } from 'react';
import { localDateOf } from '@cadence/shared/schedule/planner';
import { useTranslation } from 'react-i18next';
import type { CalendarFormat } from './calendar-format.ts';

/** What a drop target is: a day or an hour of a day, or a post that cannot move (refuses). */
export type DropTarget =
  { kind: 'slot'; date: string; hour?: number; label: string } | { kind: 'locked'; label: string };

interface DragData {
  post: CalendarPost;
}

const lockedPrefix = 'locked:';

function isLockedId(id: string | number): boolean {
  return String(id).startsWith(lockedPrefix);
}

function dropTargetOf(data: unknown): DropTarget | null {
  return typeof data === 'object' && data !== null && 'kind' in data ? (data as DropTarget) : null;
}

function postOf(data: unknown): CalendarPost | null {
  return typeof data === 'object' && data !== null && 'post' in data
    ? (data as DragData).post
    : null;
}

// The pointer decides where a dragged chip is; a locked post under it wins over its day. The
// keyboard moves the chip's centre onto targets, so the closest centre is the one it is on.
const collisionDetection: CollisionDetection = (args) => {
  if (!args.pointerCoordinates) {
    return closestCenter({
      ...args,
      droppableContainers: args.droppableContainers.filter(({ id }) => !isLockedId(id)),
    });
  }
  const hits = pointerWithin(args);
  const locked = hits.find(({ id }) => isLockedId(id));
  return locked ? [locked] : hits;
};

const directions: Record<string, [number, number]> = {
  ArrowRight: [1, 0],
  ArrowLeft: [-1, 0],
  ArrowDown: [0, 1],
  ArrowUp: [0, -1],
};

/**
 * Arrow keys jump from target to target (the next day or hour in that direction) instead of
 * dnd-kit's default 25 px steps, which would take several presses to leave a day. Never to the
 * target the chip is already on: a chip picked up where it sits in a tall day (above its centre)
 * once went "down" to that day's own centre, and stayed there.
 */
const keyboardCoordinates: KeyboardCoordinateGetter = (
  event,
  { currentCoordinates, context: { collisionRect, droppableRects, droppableContainers, over } },
) => {
  const direction = directions[event.code];
  if (!direction || !collisionRect) return undefined;
  event.preventDefault();
  const [dirX, dirY] = direction;
  const fromX = collisionRect.left + collisionRect.width / 2;
  const fromY = collisionRect.top + collisionRect.height / 2;
  let best: { dx: number; dy: number; score: number } | null = null;
  for (const container of droppableContainers.getEnabled()) {
    if (isLockedId(container.id) || container.id === over?.id) continue;
    const rect = droppableRects.get(container.id);
    if (!rect) continue;
    const under =
      fromX >= rect.left &&
      fromX <= rect.left + rect.width &&
      fromY >= rect.top &&
      fromY <= rect.top + rect.height;
    if (under) continue;
    const dx = rect.left + rect.width / 2 - fromX;
    const dy = rect.top + rect.height / 2 - fromY;
    const along = dx * dirX + dy * dirY;
    if (along < 2) continue;
    // Straight ahead first: the same row (or column) beats a nearer target beside it.
    const score = along + 4 * Math.abs(dirX !== 0 ? dy : dx);
    if (!best || score < best.score) best = { dx, dy, score };
  }
  return best
    ? { x: currentCoordinates.x + best.dx, y: currentCoordinates.y + best.dy }
    : currentCoordinates;
};

export function CalendarDnd({
  children,
  format,
  timeZone,
  renderOverlay,
  onDrop,
}: {
  children: ReactNode;
  format: CalendarFormat;
  timeZone: string;
  renderOverlay: (post: CalendarPost) => ReactNode;
  onDrop: (post: CalendarPost, target: DropTarget) => void;
}) {
  const { t } = useTranslation();
  const [active, setActive] = useState<CalendarPost | null>(null);
  const sensors = useSensors(
    // A few pixels of movement before a drag starts, so a click still opens the post.
    useSensor(MouseSensor, { activationConstraint: { distance: 6 } }),
    // On touch, a press and hold: a swipe keeps scrolling the page.
    useSensor(TouchSensor, { activationConstraint: { delay: 250, tolerance: 8 } }),
    // Space picks up and drops; Enter stays the button's own action (opening the post).
    useSensor(KeyboardSensor, {
      coordinateGetter: keyboardCoordinates,
      keyboardCodes: { start: ['Space'], cancel: ['Escape'], end: ['Space'] },
    }),
  );

  const describe = (post: CalendarPost | null) =>
    post
      ? {
          time: format.time(post.dueAt),
          date: format.longDate(localDateOf(new Date(post.dueAt), timeZone)),
        }
      : {};
  const announcements: Announcements = {
    onDragStart: ({ active: dragged }) =>
      t('calendar.dnd.start', describe(postOf(dragged.data.current))),
    onDragOver: ({ over }) => {
      const target = dropTargetOf(over?.data.current);
      if (!target) return t('calendar.dnd.outside');
      return target.kind === 'locked'
        ? t('calendar.dnd.overLocked')
        : t('calendar.dnd.over', { target: target.label });
    },
    onDragEnd: ({ over }) => {
      const target = dropTargetOf(over?.data.current);
      if (!target) return t('calendar.dnd.outside');
      return target.kind === 'locked'
        ? t('calendar.drop.locked')
        : t('calendar.dnd.end', { target: target.label });
    },
    onDragCancel: ({ active: dragged }) =>
      t('calendar.dnd.cancel', describe(postOf(dragged.data.current))),
  };

  function handleStart(event: DragStartEvent) {
    setActive(postOf(event.active.data.current));
  }

  function handleEnd(event: DragEndEvent) {
    setActive(null);
    const post = postOf(event.active.data.current);
    const target = dropTargetOf(event.over?.data.current);
    if (post && target) onDrop(post, target);
  }

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={collisionDetection}
      accessibility={{
        announcements,
        screenReaderInstructions: { draggable: t('calendar.dnd.instructions') },
      }}
      onDragStart={handleStart}
      onDragEnd={handleEnd}
      onDragCancel={() => setActive(null)}
    >
      {children}
      <DragOverlay dropAnimation={null}>{active ? renderOverlay(active) : null}</DragOverlay>
    </DndContext>
  );
}

/**
 * A pending post's chip: drag handle, keyboard target, and still a button when clicked. `place`
 * tells apart the chips of one post shown twice (in its day and in the selected day's list).
 */
export function usePostDraggable(post: CalendarPost, place: string, movable: boolean) {
  return useDraggable({
    id: `${place}:${post.id}`,
    data: { post } satisfies DragData,
    disabled: !movable,
  });
}

/** A day or an hour of a day where a post may be dropped. */
export function useSlotDroppable(date: string, label: string, hour?: number) {
  const target: DropTarget = { kind: 'slot', date, label, ...(hour !== undefined && { hour }) };
  return useDroppable({
    id: hour === undefined ? `day:${date}` : `slot:${date}:${hour}`,
    data: target,
  });
}

/** A post that can no longer move, which refuses what is dropped on it. */
export function useLockedDroppable(postId: string, place: string, label: string) {
  const target: DropTarget = { kind: 'locked', label };
  return useDroppable({ id: `${lockedPrefix}${place}:${postId}`, data: target });
}
