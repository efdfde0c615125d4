import type { Delivery, PostStatus } from '@cadence/shared/schemas/schedule';
import { useTranslation } from 'react-i18next';
import { AlertIcon, CheckIcon, XIcon } from '../../../components/ui/icons.tsx';
import { ClockIcon, InboxIcon, SpinnerDotIcon } from './icons.tsx';

/**
 * What a post's badge shows: its status, except that an inbox draft that reached the creator's
 * TikTok inbox is 'In your TikTok inbox', not 'Published' (it is not public until they finish it).
 */
export type PostBadge = PostStatus | 'inbox';

export function postBadge(post: { status: PostStatus; delivery: Delivery }): PostBadge {
  return post.status === 'completed' && post.delivery === 'inbox' ? 'inbox' : post.status;
}

/** Every badge, in the order a legend lists them: to come, under way, done, then gone wrong. */
export const postBadges = [
  'pending',
  'publishing',
  'completed',
  'inbox',
  'failed',
  'cancelled',
] as const satisfies readonly PostBadge[];
// A badge left out of the list does not compile.
const _everyBadgeListed: Exclude<PostBadge, (typeof postBadges)[number]> extends never
  ? true
  : never = true;

// Spec §2 and DESIGN: pending yellow (with an action icon), completed green, failed red, others
// grey; an inbox draft blue (done on Cadence's side, still to finish in TikTok).
export const statusTones: Record<PostBadge, string> = {
  pending: 'bg-amber-50 text-amber-800 ring-amber-500/30',
  publishing: 'bg-slate-100 text-slate-700 ring-slate-400/30',
  completed: 'bg-emerald-50 text-emerald-700 ring-emerald-600/25',
  failed: 'bg-red-50 text-red-700 ring-red-600/25',
  cancelled: 'bg-slate-100 text-slate-600 ring-slate-400/25',
  inbox: 'bg-sky-50 text-sky-800 ring-sky-600/25',
};

/** The same colours as a solid mark: a calendar's dots and a chip's edge. */
export const statusDotTones: Record<PostBadge, string> = {
  pending: 'bg-amber-500',
  publishing: 'bg-slate-400',
  completed: 'bg-emerald-500',
  failed: 'bg-red-500',
  cancelled: 'bg-slate-300',
  inbox: 'bg-sky-500',
};

export const statusLabelKeys = {
  pending: 'scheduler.status.pending',
  publishing: 'scheduler.status.publishing',
  completed: 'scheduler.status.completed',
  failed: 'scheduler.status.failed',
  cancelled: 'scheduler.status.cancelled',
  inbox: 'scheduler.status.inbox',
} as const satisfies Record<PostBadge, string>;

function StatusIcon({ status }: { status: PostBadge }) {
  const className = 'h-3.5 w-3.5';
  switch (status) {
    case 'pending':
      return <ClockIcon className={className} />;
    case 'publishing':
      return <SpinnerDotIcon className={`${className} animate-spin [animation-duration:2s]`} />;
    case 'completed':
      return <CheckIcon className={className} />;
    case 'failed':
      return <AlertIcon className={className} />;
    case 'cancelled':
      return <XIcon className={className} />;
    case 'inbox':
      return <InboxIcon className={className} />;
  }
}

export function StatusBadge({ status }: { status: PostBadge }) {
  const { t } = useTranslation();
  return (
    <span
      className={`inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${statusTones[status]}`}
      data-status={status}
    >
      <StatusIcon status={status} />
      {t(statusLabelKeys[status])}
    </span>
  );
}
