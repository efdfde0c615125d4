import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { useMe } from '../../lib/me.ts';
import { DataExportSection } from './components/data-export-section.tsx';
import { DeleteAccountSection } from './components/delete-account-section.tsx';
import { LanguageSection } from './components/language-section.tsx';
import { NotificationsSection } from './components/notifications-section.tsx';
import { PasswordSection } from './components/password-section.tsx';
import { ProfileSection } from './components/profile-section.tsx';
import { SessionsSection } from './components/sessions-section.tsx';
import { TimeZoneSection } from './components/time-zone-section.tsx';

/** /settings: the person's own account. */
export function SettingsPage() {
  const { t } = useTranslation();
  const me = useMe();
  // Inside RequireAuth, `me` is loaded; a sign-out elsewhere sends the guard to /auth.
  if (!me.data) return null;
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader title={t('settings.title')} description={t('settings.description')} />
      <div className="space-y-6">
        <ProfileSection me={me.data} />
        <LanguageSection />
        <TimeZoneSection />
        <NotificationsSection />
        <PasswordSection email={me.data.email} />
        <SessionsSection />
        <DataExportSection />
        <DeleteAccountSection />
      </div>
    </div>
  );
}
