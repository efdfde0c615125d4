import type { Delivery, PostStatus } from '@cadence/shared/schemas/schedule';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertIcon, CheckIcon, XIcon, type IconProps } from '../../../components/ui/icons.tsx';
import { ClockIcon, InboxIcon, SpinnerDotIcon } from '../components/icons.tsx';

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

/** How a status looks wherever a post shows: badges, calendar chips, the calendar's legend. */
export interface StatusLook {
  /** Background, text and ring of a badge or chip. */
  tone: string;
  /** The same colour as a solid mark: a calendar's dots and a chip's edge. */
  mark: string;
  /** The cue that is not a colour: two statuses never share an icon. */
  icon: (props: IconProps) => ReactElement;
  /** A chip's caption is struck through (cancelled: it will not be posted). */
  struck: boolean;
  labelKey: string;
}

// Spec §2 and DESIGN: pending yellow (with an action icon), completed green, failed red,
// cancelled grey; an inbox draft blue (done on Cadence's side, still to finish in TikTok).
// Publishing is violet, not a second grey: next to cancelled, two greys could not be told apart.
export const statusLooks = {
  pending: {
    tone: 'bg-amber-50 text-amber-800 ring-amber-500/30',
    mark: 'bg-amber-500',
    icon: ClockIcon,
    struck: false,
    labelKey: 'scheduler.status.pending',
  },
  publishing: {
    tone: 'bg-violet-50 text-violet-800 ring-violet-500/30',
    mark: 'bg-violet-500',
    icon: SpinnerDotIcon,
    struck: false,
    labelKey: 'scheduler.status.publishing',
  },
  completed: {
    tone: 'bg-emerald-50 text-emerald-700 ring-emerald-600/25',
    mark: 'bg-emerald-500',
    icon: CheckIcon,
    struck: false,
    labelKey: 'scheduler.status.completed',
  },
  inbox: {
    tone: 'bg-sky-50 text-sky-800 ring-sky-600/25',
    mark: 'bg-sky-500',
    icon: InboxIcon,
    struck: false,
    labelKey: 'scheduler.status.inbox',
  },
  failed: {
    tone: 'bg-red-50 text-red-700 ring-red-600/25',
    mark: 'bg-red-500',
    icon: AlertIcon,
    struck: false,
    labelKey: 'scheduler.status.failed',
  },
  cancelled: {
    tone: 'bg-slate-100 text-slate-600 ring-slate-400/25',
    mark: 'bg-slate-300',
    icon: XIcon,
    struck: true,
    labelKey: 'scheduler.status.cancelled',
  },
} as const satisfies Record<PostBadge, StatusLook>;

export function StatusBadge({ status }: { status: PostBadge }) {
  const { t } = useTranslation();
  const { tone, icon: StatusIcon, labelKey } = statusLooks[status];
  return (
    <span
      className={`inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${tone}`}
      data-status={status}
    >
      <StatusIcon
        className={`h-3.5 w-3.5 ${status === 'publishing' ? 'animate-spin [animation-duration:2s]' : ''}`}
      />
      {t(labelKey)}
    </span>
  );
}
