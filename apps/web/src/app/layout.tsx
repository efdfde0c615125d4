import type { Me } from '@cadence/shared/schemas/user';
import type { TranslationKey } from '@cadence/shared/translation-key';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useNavigate } from 'react-router';
import { BrandMark } from '../components/ui/brand.tsx';
import { useSignOut } from '../features/auth/api/sign-out.ts';
import { LanguageToggle } from '../components/language-toggle.tsx';
import { SettingsIcon } from '../components/ui/icons.tsx';
import { NotificationBell } from '../features/notifications/components/notification-bell.tsx';
import { EmailVerificationBanner } from '../features/settings/components/email-verification-banner.tsx';
import { useAfterFirstPaint } from '../lib/after-first-paint.ts';
import { LiveEventsProvider } from '../lib/live-events.tsx';

interface NavItem {
  to: string;
  labelKey: TranslationKey;
  pro?: boolean;
}

const navItems: NavItem[] = [
  { to: '/stories', labelKey: 'nav.stories', pro: true },
  { to: '/memes', labelKey: 'nav.memes', pro: true },
  { to: '/tiktok', labelKey: 'nav.tiktok' },
  { to: '/scheduler', labelKey: 'nav.scheduler' },
  { to: '/analytics', labelKey: 'nav.analytics' },
];

// A tab never wraps ("Créateur de / Stories"): the header switches to the phone menu instead.
const linkClass = ({ isActive }: { isActive: boolean }) =>
  `whitespace-nowrap rounded-lg px-2.5 py-2 text-sm font-medium transition ${isActive ? 'bg-white/10 text-white' : 'text-slate-300 hover:bg-white/5 hover:text-white'}`;

export function AppLayout({ me, children }: { me: Me; children: ReactNode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const signOut = useSignOut();
  const menu = usePhoneMenu();
  // The banner's setting (GET /api/public-config) is asked for once the screen is painted.
  const afterFirstPaint = useAfterFirstPaint();
  const items = navItems.filter((item) => !item.pro || me.isPro);

  function logout() {
    signOut.mutate(undefined, { onSuccess: () => void navigate('/auth', { replace: true }) });
  }

  return (
    <LiveEventsProvider>
      <div className="flex min-h-screen flex-col">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
        >
          {t('app.skipToContent')}
        </a>
        <header className="sticky top-0 z-30 bg-slate-950 text-white shadow-lg shadow-slate-950/10">
          {/*
          The full header (brand, Pro badge, the five Pro tabs, bell, FR/EN, cog, logout) needs about
          1,230 px in French: it shows from xl (1280 px), in a container wide enough for it, with
          tight gaps and compact icon buttons (the bell cost 52 px: gaps went from 16 to 8 px, the
          icons' padding from 8 to 6 px), and below that the menu
          button takes over. Measured in Chromium at 1280 px (e2e/foundation.e2e.ts checks it).
        */}
          <div className="mx-auto flex h-16 max-w-7xl items-center gap-2 px-4 sm:px-6">
            <Link
              to="/tiktok"
              className="flex shrink-0 items-center gap-2.5 font-bold tracking-tight"
            >
              <BrandMark />
              <span className="text-lg">{t('app.name')}</span>
            </Link>
            {me.isPro && (
              <span
                className="shrink-0 rounded-full bg-gradient-to-r from-brand-500 to-accent-500 px-2.5 py-0.5 text-xs font-bold uppercase tracking-wide"
                data-testid="pro-badge"
              >
                {t('nav.pro')}
              </span>
            )}
            <MainNav items={items} className="ml-1 hidden flex-1 items-center gap-1 xl:flex" />
            {/* The bell stays in the bar on phones too, next to the menu button. */}
            <div className="ml-auto shrink-0 xl:ml-0">
              <NotificationBell />
            </div>
            <AccountActions
              onLogout={logout}
              layout="bar"
              className="hidden shrink-0 items-center gap-1 xl:flex"
            />
            <MenuButton menu={menu} />
          </div>
          {menu.open && <PhoneMenu items={items} onLogout={logout} onClose={menu.close} />}
        </header>
        {afterFirstPaint && <EmailVerificationBanner me={me} />}
        <main
          id="main"
          // Focusable by script only: where focus goes when what held it disappears.
          tabIndex={-1}
          className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 outline-none sm:px-6 sm:py-10"
        >
          {children}
        </main>
        <Footer />
      </div>
    </LiveEventsProvider>
  );
}

/** The phone menu's state: Escape closes it and puts focus back on its button (the disclosure pattern). */
function usePhoneMenu() {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open]);
  return {
    open,
    button,
    toggle: () => setOpen((current) => !current),
    close: () => setOpen(false),
  };
}

/** The header's menu button on phones and tablets (below xl), which opens and closes PhoneMenu. */
function MenuButton({ menu }: { menu: ReturnType<typeof usePhoneMenu> }) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className="rounded-lg p-2 text-slate-200 hover:bg-white/10 xl:hidden"
      ref={menu.button}
      aria-expanded={menu.open}
      aria-controls="mobile-menu"
      aria-label={menu.open ? t('nav.closeMenu') : t('nav.openMenu')}
      onClick={menu.toggle}
    >
      <svg
        className="h-6 w-6"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        aria-hidden="true"
      >
        {menu.open ? (
          <path d="M6 6l12 12M18 6 6 18" strokeLinecap="round" />
        ) : (
          <path d="M4 7h16M4 12h16M4 17h16" strokeLinecap="round" />
        )}
      </svg>
    </button>
  );
}

/** The menu opened under the header on phones: the tabs, then the account's actions. */
function PhoneMenu({
  items,
  onLogout,
  onClose,
}: {
  items: NavItem[];
  onLogout: () => void;
  onClose: () => void;
}) {
  return (
    <div id="mobile-menu" className="border-t border-white/10 px-4 pb-4 xl:hidden">
      <MainNav items={items} className="flex flex-col gap-1 pt-3" onNavigate={onClose} />
      <AccountActions
        onLogout={onLogout}
        layout="menu"
        onNavigate={onClose}
        className="mt-3 flex flex-wrap items-center justify-between gap-2 border-t border-white/10 pt-3"
      />
    </div>
  );
}

/** The tabs, shown in the header on desktop and in the menu on phones. */
function MainNav({
  items,
  className,
  onNavigate,
}: {
  items: NavItem[];
  className: string;
  onNavigate?: () => void;
}) {
  const { t } = useTranslation();
  return (
    <nav aria-label={t('nav.mainLabel')} className={className}>
      {items.map((item) => (
        <NavLink key={item.to} to={item.to} className={linkClass} onClick={onNavigate}>
          {t(item.labelKey)}
        </NavLink>
      ))}
    </nav>
  );
}

/**
 * Language, settings and logout. In the header bar the settings link is a cog (its name read out
 * by assistive technology and shown on hover): the bar has no room left for a word at 1280 px.
 */
function AccountActions({
  onLogout,
  className,
  onNavigate,
  layout,
}: {
  onLogout: () => void;
  className: string;
  onNavigate?: () => void;
  layout: 'bar' | 'menu';
}) {
  const { t } = useTranslation();
  return (
    <div className={className}>
      <LanguageToggle tone="dark" signedIn />
      {layout === 'bar' ? (
        <NavLink
          to="/settings"
          aria-label={t('nav.settings')}
          title={t('nav.settings')}
          className={({ isActive }) =>
            `rounded-lg p-1.5 transition ${isActive ? 'bg-white/10 text-white' : 'text-slate-300 hover:bg-white/5 hover:text-white'}`
          }
        >
          <SettingsIcon className="h-5 w-5" />
        </NavLink>
      ) : (
        <NavLink
          to="/settings"
          onClick={onNavigate}
          className={({ isActive }) =>
            `inline-flex items-center gap-2 rounded-lg px-3 py-2 text-sm font-medium transition ${isActive ? 'bg-white/10 text-white' : 'text-slate-300 hover:bg-white/5 hover:text-white'}`
          }
        >
          <SettingsIcon className="h-4 w-4" />
          {t('nav.settings')}
        </NavLink>
      )}
      <button
        type="button"
        onClick={onLogout}
        className="rounded-lg px-2.5 py-2 text-sm font-medium text-slate-300 hover:bg-white/5 hover:text-white"
      >
        {t('nav.logout')}
      </button>
    </div>
  );
}

export function Footer() {
  const { t } = useTranslation();
  return (
    <footer className="border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-col gap-3 px-4 py-6 text-sm text-slate-500 sm:flex-row sm:items-center sm:justify-between sm:px-6">
        <p>{t('footer.disclaimer')}</p>
        <nav
          className="flex flex-wrap gap-x-5 gap-y-2 whitespace-nowrap"
          aria-label={t('footer.privacy') + ' / ' + t('footer.terms')}
        >
          <Link to="/privacy" className="hover:text-slate-900">
            {t('footer.privacy')}
          </Link>
          <Link to="/terms" className="hover:text-slate-900">
            {t('footer.terms')}
          </Link>
        </nav>
      </div>
    </footer>
  );
}
