import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { buttonClassName } from '../../components/ui/button.tsx';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto max-w-lg py-16 text-center">
      <p className="bg-gradient-to-r from-brand-500 to-accent-500 bg-clip-text text-7xl font-black text-transparent">
        404
      </p>
      <h1 className="mt-4 text-2xl font-bold text-slate-900">{t('notFound.title')}</h1>
      <p className="mt-3 text-slate-600">{t('notFound.description')}</p>
      <Link to="/" className={buttonClassName('primary', 'mt-8')}>
        {t('notFound.backHome')}
      </Link>
    </div>
  );
}
