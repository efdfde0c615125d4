import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { wrappableHandle } from '../wrappable-handle.ts';
import { useAnswerPendingConnection, usePendingConnection } from '../api/pending-connection.ts';

/**
 * 'Vous avez autorisé @x, mais cette carte est @y': TikTok granted access to another account than
 * the card's. Nothing has changed yet; the person keeps it (the card becomes @x) or cancels
 * (nothing changes, the grant is revoked). Closing the dialog cancels, as its label says.
 */
export function MismatchDialog({
  pendingId,
  onKept,
  onCancelled,
  onGone,
}: {
  pendingId: string | null;
  /** Kept: the username the card now has. */
  onKept: (username: string) => void;
  onCancelled: () => void;
  /** Expired or already answered (another tab): nothing left to choose. */
  onGone: () => void;
}) {
  const { t } = useTranslation();
  const pending = usePendingConnection(pendingId);
  const answer = useAnswerPendingConnection();
  const data = pending.data;
  const card = wrappableHandle(data?.cardUsername ?? '');
  const authorised = data
    ? wrappableHandle(data.authorisedUsername ?? data.authorisedDisplayName ?? '')
    : '';
  const named = data?.authorisedUsername !== null;

  function choose(choice: 'keep' | 'cancel') {
    if (!pendingId || answer.isPending) return;
    answer.mutate(
      { id: pendingId, choice },
      {
        onSuccess: () => {
          answer.reset();
          if (choice === 'cancel') onCancelled();
          else onKept(data?.holderUsername ?? data?.authorisedUsername ?? data?.cardUsername ?? '');
        },
      },
    );
  }

  const gone =
    (pending.error instanceof ApiError && pending.error.status === 404) ||
    (answer.error instanceof ApiError && answer.error.status === 404);
  const error = pending.error ?? answer.error;
  // Closing while the choice still stands cancels it; once it is gone, closing only closes.
  const close = () => (gone || !data ? onGone() : choose('cancel'));

  return (
    <Dialog
      open={pendingId !== null}
      onClose={close}
      title={t('accounts.mismatch.title')}
      closeLabel={gone || !data ? t('accounts.callback.dismiss') : t('accounts.mismatch.close')}
      footer={
        data &&
        !gone && (
          <MismatchChoices
            pendingChoice={answer.isPending ? answer.variables.choice : null}
            keepLabel={
              named
                ? t('accounts.mismatch.keep', { authorised })
                : t('accounts.mismatch.keepUnnamed')
            }
            onChoose={choose}
          />
        )
      }
    >
      <div className="space-y-4 text-sm text-slate-600">
        {pending.isPending && (
          <p className="flex items-center gap-2">
            <Spinner className="h-4 w-4" />
            {t('accounts.mismatch.loading')}
          </p>
        )}
        {data && !gone && (
          <MismatchExplanation
            authorised={authorised}
            card={card}
            named={named}
            holderUsername={data.holderUsername}
          />
        )}
        {error && (
          <Alert tone="error">
            {gone
              ? t('accounts.errors.pendingGone')
              : t(error instanceof ApiError ? error.translationKey : 'errors.internal')}
          </Alert>
        )}
      </div>
    </Dialog>
  );
}

/** Cancel or keep; while one is being answered both are disabled and the chosen one spins. */
function MismatchChoices({
  pendingChoice,
  keepLabel,
  onChoose,
}: {
  pendingChoice: 'keep' | 'cancel' | null;
  keepLabel: string;
  onChoose: (choice: 'keep' | 'cancel') => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex w-full flex-col-reverse gap-3 sm:flex-row sm:justify-end">
      <Button
        variant="secondary"
        onClick={() => onChoose('cancel')}
        disabled={pendingChoice !== null}
      >
        {pendingChoice === 'cancel' && <Spinner className="h-4 w-4" />}
        {pendingChoice === 'cancel'
          ? t('accounts.mismatch.cancelling')
          : t('accounts.mismatch.cancel')}
      </Button>
      <Button onClick={() => onChoose('keep')} disabled={pendingChoice !== null}>
        {pendingChoice === 'keep' && <Spinner className="h-4 w-4" />}
        {pendingChoice === 'keep' ? t('accounts.mismatch.keeping') : keepLabel}
      </Button>
    </div>
  );
}

/** Which account was authorised, which card asked, and what each choice does to the card. */
function MismatchExplanation({
  authorised,
  card,
  named,
  holderUsername,
}: {
  authorised: string;
  card: string;
  named: boolean;
  holderUsername: string | null;
}) {
  const { t } = useTranslation();
  return (
    <>
      <p className="break-words rounded-xl bg-amber-50 px-3.5 py-3 font-medium text-amber-900 ring-1 ring-inset ring-amber-200">
        {named
          ? t('accounts.mismatch.message', { authorised, card })
          : t('accounts.mismatch.messageUnnamed', { authorised, card })}
      </p>
      <p className="break-words">
        {holderUsername !== null
          ? t('accounts.mismatch.keepHolder', { holder: wrappableHandle(holderUsername) })
          : named
            ? t('accounts.mismatch.keepRename', { authorised, card })
            : t('accounts.mismatch.keepUnnamedCard', { card })}
      </p>
      <p className="break-words">{t('accounts.mismatch.cancelExplained')}</p>
    </>
  );
}
