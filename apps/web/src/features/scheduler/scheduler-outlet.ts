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
}

export function useSchedulerOutlet(): SchedulerOutletContext {
  return useOutletContext<SchedulerOutletContext>();
}
