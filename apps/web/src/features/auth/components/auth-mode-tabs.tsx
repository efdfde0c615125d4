import { useTranslation } from 'react-i18next';
import type { AuthMode } from '../hooks/use-auth-form.ts';

/** 'Connexion' | 'Inscription': which of the two forms the page shows. */
export function AuthModeTabs({
  mode,
  onChoose,
}: {
  mode: AuthMode;
  onChoose: (mode: AuthMode) => void;
}) {
  const { t } = useTranslation();
  return (
    <div
      className="mb-6 grid grid-cols-2 rounded-lg bg-slate-100 p-1 text-sm font-semibold"
      role="tablist"
    >
      {(['login', 'signup'] as const).map((tabMode) => (
        <button
          key={tabMode}
          type="button"
          role="tab"
          aria-selected={mode === tabMode}
          onClick={() => onChoose(tabMode)}
          className={`rounded-md py-2 transition ${mode === tabMode ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900'}`}
        >
          {t(tabMode === 'login' ? 'auth.login' : 'auth.signup')}
        </button>
      ))}
    </div>
  );
}
