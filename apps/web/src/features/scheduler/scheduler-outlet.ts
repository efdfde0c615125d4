import type { Post } from '@cadence/shared/schemas/schedule';
import { useOutletContext } from 'react-router';
import type { PostActions } from './components/post-item.tsx';

/**
 * What the scheduler page hands the view below its tabs (queue, history, and the calendar to
 * come): the row actions (their dialogs live on the page), the form, and whether the live stream
 * is connected (a view polls while it is not).
 */
export interface SchedulerOutletContext {
  actions: PostActions;
  openForm: () => void;
  live: boolean;
  /** The post a link asked for (`?post=<id>`), read from the server: shown and focused. */
  requestedPost: Post | null;
  /**
   * A post whose row's first action takes the focus once the row is drawn: one restored from the
   * undo toast, back in the list. A new object for each request.
   */
  focusRequest: { postId: string } | null;
}

export function useSchedulerOutlet(): SchedulerOutletContext {
  return useOutletContext<SchedulerOutletContext>();
}
