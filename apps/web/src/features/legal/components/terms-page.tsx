import { FullScreenSpinner } from '../../../components/ui/spinner.tsx';
import { usePublicConfig } from '../../../lib/public-config.ts';
import { CompanyDetails, LegalLayout } from './legal-layout.tsx';

export function TermsPage() {
  const config = usePublicConfig();
  if (!config.data) return <FullScreenSpinner />;
  const { contactEmail } = config.data;
  return (
    <LegalLayout title="Terms of Service" updated="21 November 2026">
      <section>
        <h2>1. Acceptance of terms</h2>
        <p>
          By creating an account or using Cadence, you agree to these terms. If you do not agree, do
          not use the service.
        </p>
      </section>
      <section>
        <h2>2. Description of the service</h2>
        <p>
          Cadence automates posting to TikTok through TikTok&apos;s official API: you upload videos,
          choose when they are published, and Cadence publishes them to the TikTok accounts you
          connect. Pro users also get a story creator and a meme detector.
        </p>
      </section>
      <section>
        <h2>3. Your account</h2>
        <ul>
          <li>You must hold a valid TikTok account for every account you connect.</li>
          <li>You must give accurate information when you sign up.</li>
          <li>
            You are responsible for keeping your credentials secure and for all activity under your
            account.
          </li>
        </ul>
      </section>
      <section>
        <h2>4. Acceptable use</h2>
        <ul>
          <li>Do not violate TikTok&apos;s terms of service or community guidelines.</li>
          <li>
            Do not upload or publish illegal content, or content you do not have the rights to.
          </li>
          <li>Do not disrupt, overload or attempt to gain unauthorised access to the service.</li>
        </ul>
      </section>
      <section>
        <h2>5. Limitation of liability</h2>
        <p>
          The service is provided &quot;as is&quot;, without warranties of any kind. We are not
          liable for posts that TikTok refuses, delays or removes, nor for indirect or consequential
          losses.
        </p>
      </section>
      <section>
        <h2>6. Company information</h2>
        <CompanyDetails {...config.data} />
      </section>
      <section>
        <h2>7. Modifications</h2>
        <p>We may modify these terms. Changes take effect when they are posted on this page.</p>
      </section>
      <section>
        <h2>8. Contact</h2>
        <p>
          Questions about these terms:{' '}
          <a className="font-medium text-brand-600 underline" href={`mailto:${contactEmail}`}>
            {contactEmail}
          </a>
          .
        </p>
      </section>
    </LegalLayout>
  );
}
