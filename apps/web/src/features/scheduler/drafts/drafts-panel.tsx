import type { Account } from '@cadence/shared/schemas/account';
import type { Draft } from '@cadence/shared/schemas/planning';
import { useTranslation } from 'react-i18next';
import { useDrafts } from '../api/get-drafts.ts';
import { useDeleteDraft } from '../api/planning.ts';
import { DraftList } from './draft-list.tsx';

/**
 * 'Brouillons (3)' at the top of the form: the saved drafts (DraftList); one opens back into
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
  const drafts = useDrafts(enabled);
  const remove = useDeleteDraft();
  const list = drafts.data ?? [];
  if (list.length === 0) return null;

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
      <DraftList
        drafts={list}
        accounts={accounts}
        currentDraftId={currentDraftId}
        onOpen={onOpen}
        onDelete={(draft) => remove.mutate(draft.id, { onSuccess: () => onDeleted(draft.id) })}
        deletingId={remove.isPending ? remove.variables : null}
        className="px-4 pb-2"
      />
    </details>
  );
}
