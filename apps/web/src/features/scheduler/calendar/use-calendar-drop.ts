import type { CalendarPost } from '@cadence/shared/schemas/planning';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../lib/error-text.ts';
import { useMovePost } from './api/move-post.ts';
import type { DropTarget } from './calendar-dnd.tsx';
import { movedDueAt } from './calendar-grid.ts';

export type Notice = { tone: 'success' | 'error'; text: string };

/**
 * A chip dropped on a day or an hour: the post moved there (in `timeZone`), or why not (a locked
 * cell, a time already past), said through `setNotice`.
 */
export function useCalendarDrop(timeZone: string, setNotice: (notice: Notice | null) => void) {
  const { t } = useTranslation();
  const move = useMovePost();
  const errorText = useErrorText('calendar.drop.failed');
  return function drop(post: CalendarPost, target: DropTarget) {
    if (target.kind === 'locked') {
      setNotice({ tone: 'error', text: t('calendar.drop.locked') });
      return;
    }
    const dueAt = movedDueAt(post.dueAt, target, timeZone);
    if (dueAt.getTime() === Date.parse(post.dueAt)) return;
    if (dueAt.getTime() <= Date.now()) {
      setNotice({ tone: 'error', text: t('calendar.drop.past') });
      return;
    }
    setNotice(null);
    move.mutate(
      { id: post.id, dueAt: dueAt.toISOString() },
      {
        onSuccess: () =>
          setNotice({ tone: 'success', text: t('calendar.drop.moved', { date: target.label }) }),
        onError: (error) => setNotice({ tone: 'error', text: errorText(error) }),
      },
    );
  };
}
