import { unsubscribeQuerySchema } from '@cadence/shared/schemas/notification';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { LinkPage } from '../../../components/ui/link-page.tsx';
import { useErrorText } from '../../../lib/error-text.ts';
import { useUnsubscribe } from '../api/unsubscribe.ts';

/**
 * /unsubscribe?token=…: the page an email's unsubscribe link opens, signed in or out. It asks for
 * one click rather than unsubscribing on load: mail scanners open links, and must not unsubscribe
 * anyone (mail clients' own button POSTs to the API directly, RFC 8058).
 */
export function UnsubscribePage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const valid = unsubscribeQuerySchema.safeParse({ token }).success;
  const unsubscribe = useUnsubscribe();
  const errorText = useErrorText('settings.errors.badUnsubscribeLink');
  const done = unsubscribe.data;

  return (
    <LinkPage title={t('settings.notifications.unsubscribe.title')}>
      {!valid ? (
        <Alert tone="error">{t('settings.notifications.unsubscribe.missing')}</Alert>
      ) : done ? (
        <Alert tone="success">
          {t('settings.notifications.unsubscribe.done', {
            type:
              done.type === 'all'
                ? t('settings.notifications.unsubscribe.allTypes')
                : t(`settings.notifications.types.${done.type}`),
          })}
        </Alert>
      ) : (
        <>
          <p className="text-sm text-slate-700">{t('settings.notifications.unsubscribe.intro')}</p>
          {unsubscribe.isError && <Alert tone="error">{errorText(unsubscribe.error)}</Alert>}
          <Button onClick={() => unsubscribe.mutate(token)} disabled={unsubscribe.isPending}>
            {t('settings.notifications.unsubscribe.confirm')}
          </Button>
        </>
      )}
    </LinkPage>
  );
}
