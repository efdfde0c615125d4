import { FullScreenSpinner } from '../../../components/ui/spinner.tsx';
import { usePublicConfig } from '../../../lib/public-config.ts';
import { CompanyDetails, LegalLayout } from './legal-layout.tsx';

export function PrivacyPage() {
  const config = usePublicConfig();
  if (!config.data) return <FullScreenSpinner />;
  const { contactEmail } = config.data;
  return (
    <LegalLayout title="Privacy Policy" updated="21 November 2026">
      <section>
        <h2>1. Information we collect</h2>
        <p>To schedule and publish videos on your behalf, we collect:</p>
        <ul>
          <li>
            <strong>TikTok account information</strong>: your TikTok open ID, display name, username
            and avatar, the permissions you granted, and the access tokens TikTok issues to us
            (stored encrypted).
          </li>
          <li>
            <strong>Publishing and scheduling data</strong>: the videos you upload, their captions
            and settings, the times you choose, and the publishing status TikTok reports back.
          </li>
          <li>
            <strong>Usage information</strong>: your name, email address, language preference, and
            technical logs (dates of sign-in, errors) needed to run and secure the service.
          </li>
        </ul>
      </section>
      <section>
        <h2>2. How we use your data</h2>
        <p>
          We use your data only to provide the service: to publish your videos to the TikTok
          accounts you connect, at the times you choose, to show you their status, and to keep your
          account secure. We do not sell your data or use your videos for any other purpose.
        </p>
      </section>
      <section>
        <h2>3. How we protect your data</h2>
        <p>
          Passwords are hashed; TikTok tokens are encrypted at rest and never sent to your browser;
          sessions use secure, HTTP-only cookies. Access to your data is limited to your own
          account. Uploaded videos are deleted when you delete them or close your account.
        </p>
      </section>
      <section>
        <h2>4. Your rights</h2>
        <p>Under data-protection law you have the right to:</p>
        <ul>
          <li>access the personal data we hold about you;</li>
          <li>correct data that is inaccurate or incomplete;</li>
          <li>delete your data and your account;</li>
          <li>withdraw your consent at any time, for example by disconnecting a TikTok account.</li>
        </ul>
      </section>
      <section>
        <h2>5. Company information</h2>
        <CompanyDetails {...config.data} />
      </section>
      <section>
        <h2>6. Contact</h2>
        <p>
          For any question about this policy or your data, write to{' '}
          <a className="font-medium text-brand-600 underline" href={`mailto:${contactEmail}`}>
            {contactEmail}
          </a>
          .
        </p>
      </section>
    </LegalLayout>
  );
}
