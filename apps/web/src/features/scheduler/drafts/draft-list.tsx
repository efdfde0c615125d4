import { dateFormatter } from '@cadence/shared/date-format';
import type { Account } from '@cadence/shared/schemas/account';
import type { Draft } from '@cadence/shared/schemas/planning';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useLanguage } from '../../../lib/i18n.ts';
import { useTimeZone } from '../../../lib/use-time-zone.ts';

/**
 * The saved drafts, newest first, as the form's 'Brouillons (3)' panel and the drafts tab show
 * them: thumbnail, first caption, videos, account and when last saved; 'Ouvrir' puts one in the
 * form. 'Supprimer' shows where the form can forget the draft it holds (`onDelete`).
 */
export function DraftList({
  drafts,
  accounts,
  currentDraftId,
  onOpen,
  onDelete,
  deletingId = null,
  className = '',
}: {
  drafts: readonly Draft[];
  accounts: readonly Account[];
  /** The draft the form holds now: its 'Ouvrir' is off. */
  currentDraftId: string | null;
  onOpen: (draft: Draft) => void;
  onDelete?: (draft: Draft) => void;
  deletingId?: string | null;
  className?: string;
}) {
  const { t } = useTranslation();
  const { locale } = useLanguage();
  const { timeZone } = useTimeZone();
  const savedAt = dateFormatter(locale, {
    timeZone,
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
  });
  return (
    <ul
      className={`divide-y divide-slate-200 ${className}`}
      aria-label={t('planner.drafts.listLabel')}
    >
      {drafts.map((draft) => {
        const name = draftName(draft) || t('planner.drafts.untitled');
        const account = accounts.find((candidate) => candidate.id === draft.accountId);
        const thumbnail = draft.videos.find((video) => video.thumbnailUrl)?.thumbnailUrl;
        const deleting = deletingId === draft.id;
        return (
          <li
            key={draft.id}
            className="flex flex-wrap items-center gap-x-3 gap-y-2 py-2.5"
            data-draft-id={draft.id}
          >
            {thumbnail ? (
              <img
                src={thumbnail}
                alt=""
                className="h-12 w-9 shrink-0 rounded-md bg-slate-200 object-cover"
              />
            ) : (
              <span className="h-12 w-9 shrink-0 rounded-md bg-slate-200" aria-hidden="true" />
            )}
            <div className="min-w-40 flex-1 basis-40">
              <p className="truncate text-sm font-medium text-slate-900">{name}</p>
              {/* Wrapped, not cut: on a phone the cut took the date of the last change. */}
              <p className="text-xs text-slate-500 [overflow-wrap:anywhere]">
                {t(
                  draft.videos.length === 1
                    ? 'planner.drafts.videosOne'
                    : 'planner.drafts.videosMany',
                  { n: draft.videos.length },
                )}
                {account && ` · @${account.username}`} ·{' '}
                {t('planner.drafts.savedAt', {
                  when: savedAt.format(new Date(draft.updatedAt)),
                })}
              </p>
            </div>
            <div className="ml-auto flex shrink-0 gap-1">
              <button
                type="button"
                onClick={() => onOpen(draft)}
                disabled={draft.id === currentDraftId}
                aria-label={t('planner.drafts.openLabel', { name })}
                className="rounded-lg px-2.5 py-1.5 text-xs font-semibold text-brand-700 ring-1 ring-inset ring-brand-200 hover:bg-brand-50 disabled:cursor-default disabled:text-slate-400 disabled:ring-slate-200"
              >
                {t('planner.drafts.open')}
              </button>
              {onDelete && (
                <button
                  type="button"
                  onClick={() => onDelete(draft)}
                  disabled={deleting}
                  aria-label={t('planner.drafts.deleteLabel', { name })}
                  className="rounded-lg px-2.5 py-1.5 text-xs font-semibold text-red-700 hover:bg-red-50"
                >
                  {deleting ? <Spinner className="h-3.5 w-3.5" /> : t('planner.drafts.delete')}
                </button>
              )}
            </div>
          </li>
        );
      })}
    </ul>
  );
}

/** A draft's name: its first caption, cut short. */
function draftName(draft: Draft): string {
  const caption = draft.videos.find((video) => video.title.trim() !== '')?.title.trim() ?? '';
  return caption.length > 60 ? `${caption.slice(0, 59)}…` : caption;
}
