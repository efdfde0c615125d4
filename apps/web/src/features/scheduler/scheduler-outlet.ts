import type { Account } from '@cadence/shared/schemas/account';
import type { Draft } from '@cadence/shared/schemas/planning';
import type { UseQueryResult } from '@tanstack/react-query';
import type { Post } from '@cadence/shared/schemas/schedule';
import { useOutletContext } from 'react-router';
import type { PostActions } from './posts/post-buttons.tsx';

/**
 * What the scheduler page hands the view below its tabs (queue, history, drafts): the row
 * actions (their dialogs live on the page), the form, and whether the live stream is connected
 * (a view polls while it is not).
 */
export interface SchedulerOutletContext {
  actions: PostActions;
  openForm: () => void;
  /** The saved drafts (the drafts tab's list, the tabs' count). */
  drafts: UseQueryResult<Draft[]>;
  /** The person's accounts (a draft names its own). */
  accounts: readonly Account[];
  /** Opens the form with `draft` in it, as the form's own drafts list does. */
  openDraft: (draft: Draft) => void;
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
