import { unsubscribeQuerySchema } from '@cadence/shared/schemas/notification';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { BrandMark } from '../../../components/ui/brand.tsx';
import { Button } from '../../../components/ui/button.tsx';
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
    <main id="main" className="flex min-h-screen items-start justify-center bg-slate-50 px-4 py-16">
      <div className="w-full max-w-md rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <Link to="/" className="mb-6 flex items-center gap-2.5 font-bold text-slate-900">
          <BrandMark />
          <span className="text-lg">{t('app.name')}</span>
        </Link>
        <h1 className="text-xl font-bold text-slate-900">
          {t('settings.notifications.unsubscribe.title')}
        </h1>
        <div className="mt-4 space-y-4">
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
              <p className="text-sm text-slate-700">
                {t('settings.notifications.unsubscribe.intro')}
              </p>
              {unsubscribe.isError && <Alert tone="error">{errorText(unsubscribe.error)}</Alert>}
              <Button onClick={() => unsubscribe.mutate(token)} disabled={unsubscribe.isPending}>
                {t('settings.notifications.unsubscribe.confirm')}
              </Button>
            </>
          )}
        </div>
      </div>
    </main>
  );
}
