import { dateFormatter } from '@cadence/shared/date-format';
import type { Account } from '@cadence/shared/schemas/account';
import type { Draft } from '@cadence/shared/schemas/planning';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useLanguage } from '../../../lib/i18n.ts';
import { useDeleteDraft, useDrafts } from '../api/planning.ts';

/**
 * 'Brouillons (3)' at the top of the form: the saved drafts, newest first; one opens back into
 * the form (videos, captions, account and settings), or is deleted. Nothing shows without drafts.
 */
export function DraftsPanel({
  enabled,
  accounts,
  currentDraftId,
  onOpen,
  onDeleted,
}: {
  enabled: boolean;
  accounts: readonly Account[];
  /** The draft the form holds now, marked in the list. */
  currentDraftId: string | null;
  onOpen: (draft: Draft) => void;
  onDeleted: (id: string) => void;
}) {
  const { t } = useTranslation();
  const { locale } = useLanguage();
  const drafts = useDrafts(enabled);
  const remove = useDeleteDraft();
  const list = drafts.data ?? [];
  if (list.length === 0) return null;
  const savedAt = dateFormatter(locale, {
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
  });

  return (
    <details
      className="group rounded-xl bg-slate-50 ring-1 ring-inset ring-slate-200"
      data-testid="drafts-panel"
    >
      <summary className="flex cursor-pointer list-none items-center justify-between gap-3 rounded-xl px-4 py-3 text-sm font-semibold text-slate-900 hover:bg-slate-100 [&::-webkit-details-marker]:hidden">
        {t('planner.drafts.title', { n: list.length })}
        <svg
          className="h-4 w-4 text-slate-500 transition group-open:rotate-180"
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          aria-hidden="true"
        >
          <path d="m6 9 6 6 6-6" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </summary>
      <ul
        className="divide-y divide-slate-200 px-4 pb-2"
        aria-label={t('planner.drafts.listLabel')}
      >
        {list.map((draft) => {
          const name = draftName(draft) || t('planner.drafts.untitled');
          const account = accounts.find((candidate) => candidate.id === draft.accountId);
          const thumbnail = draft.videos.find((video) => video.thumbnailUrl)?.thumbnailUrl;
          const deleting = remove.isPending && remove.variables === draft.id;
          return (
            <li key={draft.id} className="flex flex-wrap items-center gap-x-3 gap-y-2 py-2.5">
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
                <p className="truncate text-xs text-slate-500">
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
                <button
                  type="button"
                  onClick={() => remove.mutate(draft.id, { onSuccess: () => onDeleted(draft.id) })}
                  disabled={deleting}
                  aria-label={t('planner.drafts.deleteLabel', { name })}
                  className="rounded-lg px-2.5 py-1.5 text-xs font-semibold text-red-700 hover:bg-red-50"
                >
                  {deleting ? <Spinner className="h-3.5 w-3.5" /> : t('planner.drafts.delete')}
                </button>
              </div>
            </li>
          );
        })}
      </ul>
    </details>
  );
}

/** A draft's name: its first caption, cut short. */
function draftName(draft: Draft): string {
  const caption = draft.videos.find((video) => video.title.trim() !== '')?.title.trim() ?? '';
  return caption.length > 60 ? `${caption.slice(0, 59)}…` : caption;
}
