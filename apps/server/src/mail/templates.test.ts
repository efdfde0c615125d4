import { describe, expect, it } from 'vitest';
import { dataExportReadyMail, formatValidity, passwordResetMail } from './templates.ts';

const link = 'http://localhost:3000/auth/reset?token=abc123XYZ';

describe('mail templates', () => {
  it('writes the password reset message in French and in English, text and HTML alike', () => {
    const fr = passwordResetMail('fr', { name: 'Zoé', link, validForMinutes: 60 });
    expect(fr.subject).toBe('Réinitialisez votre mot de passe Cadence');
    expect(fr.text).toContain('Bonjour Zoé,');
    // Intl puts a no-break space between number and unit, as French typography wants.
    expect(fr.text.replaceAll('\u00a0', ' ')).toContain(
      'valable 1 heure, utilisable une seule fois',
    );
    expect(fr.text).toContain(`\n\n${link}\n\n`);
    expect(fr.html).toContain('<html lang="fr">');
    expect(fr.html).toContain(`href="${link}"`);
    expect(fr.html).toContain('Choisir un nouveau mot de passe');
    expect(fr.link).toBe(link);

    const en = passwordResetMail('en', { name: 'Zoé', link, validForMinutes: 60 });
    expect(en.subject).toBe('Reset your Cadence password');
    expect(en.text).toContain('Hello Zoé,');
    expect(en.text.replaceAll('\u00a0', ' ')).toContain('valid for 1 hour, usable once');
    expect(en.html).toContain('<html lang="en">');
    expect(en.html).toContain('Choose a new password');
  });

  it('escapes what a person typed (their name) in the HTML', () => {
    const mail = passwordResetMail('en', {
      name: '<img src=x onerror=alert(1)> & "Bob"',
      link,
      validForMinutes: 60,
    });
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;Bob&quot;');
    // The plain text part is text: shown as typed.
    expect(mail.text).toContain('Hello <img src=x onerror=alert(1)> & "Bob",');
  });

  it('loads nothing remote and tracks nothing: no image, no script, no other link', () => {
    for (const language of ['fr', 'en'] as const) {
      const { html } = passwordResetMail(language, { name: 'A', link, validForMinutes: 60 });
      expect(html).not.toMatch(/<img|<script|<link|src=|url\(/i);
      const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((match) => match[1]);
      expect(hrefs).toEqual([link]);
    }
  });

  it('says how long a link lasts in words of the language', () => {
    const validity = (minutes: number, language: 'fr' | 'en') =>
      formatValidity(minutes, language).replaceAll('\u00a0', ' ');
    expect(validity(60, 'fr')).toBe('1 heure');
    expect(validity(120, 'fr')).toBe('2 heures');
    expect(validity(90, 'fr')).toBe('90 minutes');
    expect(validity(60, 'en')).toBe('1 hour');
    expect(validity(30, 'en')).toBe('30 minutes');
  });

  // Regression: English e-mails wrote US dates ('December 1, 2026 at 10:00 AM'), the web app en-GB.
  it("writes the first of a month '1er' in French, '1 December … 10:00' in English as the app does (data export's expiry)", () => {
    const params = {
      name: 'Zoé',
      link: 'http://localhost:3000/settings',
      expiresAt: new Date('2026-12-01T09:00:00Z'),
      timeZone: 'Europe/Paris',
    };
    expect(dataExportReadyMail('fr', params).text).toContain(
      'Elle sera supprimée le 1er décembre 2026 à 10:00.',
    );
    const english = dataExportReadyMail('en', params);
    for (const body of [english.text, english.html]) {
      expect(body).toContain('It will be deleted on 1 December 2026 at 10:00.');
    }
  });
});
