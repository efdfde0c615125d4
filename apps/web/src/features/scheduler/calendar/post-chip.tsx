import type { CalendarPost } from '@cadence/shared/schemas/planning';
import { memo, useMemo } from 'react';
import type { TFunction } from 'i18next';
import { VideoIcon } from '../components/icons.tsx';
import { postBadge, statusLooks } from '../posts/status-badge.tsx';
import type { CalendarFormat } from './calendar-format.ts';
import { useLockedDroppable, usePostDraggable } from './calendar-dnd.tsx';

/** What a chip needs of its calendar: formats, words, and what a post may do (calendar-parts). */
export interface ChipContext {
  format: CalendarFormat;
  t: TFunction;
  /** A pending post whose time is ahead: it can be dragged, and opens the reschedule dialog. */
  isMovable: (post: CalendarPost) => boolean;
  onOpen: (post: CalendarPost) => void;
  /** More than one account in sight: a chip names its account, else every chip would repeat it. */
  showAccount: boolean;
}

export interface ChipProps {
  post: CalendarPost;
  context: ChipContext;
  /** Where the chip is (a day cell, the day list…): one post may show in two places. */
  place: string;
  /** The roomier form of the day lists (caption shown). */
  wide?: boolean;
}

interface FaceProps {
  post: CalendarPost;
  format: CalendarFormat;
  t: TFunction;
  showAccount: boolean;
  wide?: boolean;
}

const captionOf = (post: CalendarPost, t: TFunction) =>
  post.title.trim() || t('scheduler.post.untitled');

/**
 * '@account' whole, over as many lines as it takes: on a line of its own when it fits one (an
 * inline block), else broken after a '.', '_' or '-' ('@lea.' over 'cuisine', rather than
 * '@lea.cuisi' over 'ne'), and anywhere in a part longer than the line. Cut to '@…' in a
 * tablet's narrow cells, it left a creator with several accounts guessing which one a post or a
 * count was for.
 */
export function AccountHandle({
  username,
  className = '',
}: {
  username: string;
  className?: string;
}) {
  const parts = username
    .split(/(?<=[._-])/)
    .flatMap((part, index) => (index === 0 ? [part] : [<wbr key={index} />, part]));
  return (
    <span className={`inline-block max-w-full [overflow-wrap:anywhere] ${className}`}>
      @{parts}
    </span>
  );
}

// Memoised apart from the chip: dnd-kit re-renders every draggable when a target registers, and
// then only the button's attributes change, never its face. Each piece of text truncates on its
// own (no text inside a clipped parent), so nothing reaches past the chip, even when clipped.
const ChipFace = memo(function ChipFace({ post, format, t, showAccount, wide = false }: FaceProps) {
  const look = statusLooks[postBadge(post)];
  const StatusIcon = look.icon;
  return (
    <>
      <span className={`w-1 self-stretch shrink-0 rounded-full ${look.mark}`} aria-hidden="true" />
      <span
        // In a narrow grid (a tablet) the caption needs the room more than the cover does.
        className={`relative shrink-0 overflow-hidden rounded bg-slate-900 ${wide ? 'h-10 w-7' : 'hidden h-8 w-[1.125rem] lg:block'}`}
        aria-hidden="true"
      >
        {post.thumbnailUrl ? (
          <img
            src={post.thumbnailUrl}
            alt=""
            className="h-full w-full object-cover"
            loading="lazy"
            decoding="async"
          />
        ) : (
          <VideoIcon className="m-auto h-3 w-3 text-slate-400" />
        )}
      </span>
      <span className="flex min-w-0 flex-1 flex-col text-left">
        <span className="flex min-w-0 items-start gap-1">
          <StatusIcon
            className={`shrink-0 ${wide ? 'mt-[0.1875rem] h-3.5 w-3.5' : 'mt-0.5 h-3 w-3'}`}
          />
          {/* The account follows the time while there is room, else goes to the next line. */}
          <span className="min-w-0">
            <span className="whitespace-nowrap font-semibold tabular-nums">
              {format.time(post.dueAt)}
            </span>
            {showAccount && (
              <>
                {' '}
                <AccountHandle username={post.accountUsername} className="font-normal" />
              </>
            )}
          </span>
        </span>{' '}
        <span
          className={`block min-w-0 truncate font-normal ${look.struck ? 'line-through' : ''} ${wide ? 'text-slate-700' : ''}`}
        >
          {captionOf(post, t)}
        </span>
      </span>
    </>
  );
});

/** What a face reads of the calendar: only what stays the same while its data changes. */
const faceContext = ({ format, t, showAccount }: ChipContext) => ({ format, t, showAccount });

const chipClass = (post: CalendarPost, wide: boolean) =>
  `flex w-full min-w-0 items-center gap-1.5 rounded-md py-0.5 pl-0.5 pr-1.5 ring-1 ring-inset ${
    wide ? 'text-sm' : 'text-[0.6875rem] leading-4'
  } ${statusLooks[postBadge(post)].tone}`;

/**
 * A post in the calendar: thumbnail, status icon, time (and account when there are several,
 * whole, over as many lines as it takes) over its caption, in its status's colours.
 */
export const PostChip = memo(function PostChip(props: ChipProps) {
  return props.context.isMovable(props.post) ? (
    <MovableChip {...props} />
  ) : (
    <LockedChip {...props} />
  );
});

/** The chip's visible words in their order, then its status (WCAG 2.5.3: the name holds the label). */
function chipLabel(post: CalendarPost, { format, t, showAccount }: ChipContext): string {
  const words = {
    time: format.time(post.dueAt),
    username: post.accountUsername,
    caption: captionOf(post, t),
    status: t(statusLooks[postBadge(post)].labelKey),
  };
  return showAccount ? t('calendar.chipLabelAccount', words) : t('calendar.chipLabel', words);
}

function MovableChip({ post, context, place, wide = false }: ChipProps) {
  // dnd-kit re-renders each draggable whenever a drop target registers: the words are kept.
  const label = useMemo(() => chipLabel(post, context), [post, context]);
  const { attributes, listeners, setNodeRef, isDragging } = usePostDraggable(post, place, true);
  return (
    <button
      ref={setNodeRef}
      type="button"
      {...attributes}
      {...listeners}
      aria-label={label}
      data-post-id={post.id}
      data-status={postBadge(post)}
      onClick={() => context.onOpen(post)}
      className={`${chipClass(post, wide)} cursor-grab touch-manipulation hover:brightness-95 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-500 ${isDragging ? 'opacity-40' : ''}`}
    >
      <ChipFace post={post} wide={wide} {...faceContext(context)} />
    </button>
  );
}

function LockedChip({ post, context, place, wide = false }: ChipProps) {
  const label = useMemo(() => chipLabel(post, context), [post, context]);
  const { setNodeRef } = useLockedDroppable(post.id, place, label);
  return (
    <div
      ref={setNodeRef}
      className={chipClass(post, wide)}
      data-post-id={post.id}
      data-status={postBadge(post)}
    >
      <span className="sr-only">{label}</span>
      <span className="contents" aria-hidden="true">
        <ChipFace post={post} wide={wide} {...faceContext(context)} />
      </span>
    </div>
  );
}

/** What follows the pointer while a chip is dragged. */
export function ChipPreview({ post, context }: { post: CalendarPost; context: ChipContext }) {
  return (
    <div className={`${chipClass(post, false)} w-40 shadow-lg`}>
      <ChipFace post={post} {...faceContext(context)} />
    </div>
  );
}
