import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readZip } from '../apps/server/src/test-support/read-zip.ts';
import {
  startSmtpTestServer,
  type SmtpTestServer,
} from '../apps/server/src/test-support/smtp-test-server.ts';
import { newUser, signUp } from './support/actions.ts';
import { axeViolations } from './support/axe.ts';
import { useBrowserSuite } from './support/suite.ts';

// Mail goes to a real SMTP server in this process; REQUIRE_EMAIL_VERIFICATION is on, so sign-up
// mails a confirmation link and the banner shows until it is opened.
let smtp: SmtpTestServer;
beforeAll(async () => {
  smtp = await startSmtpTestServer();
});
afterAll(() => smtp.close());

const suite = useBrowserSuite(() => ({
  SMTP_URL: smtp.url,
  MAIL_FROM: 'Cadence <no-reply@cadence.test>',
  REQUIRE_EMAIL_VERIFICATION: 'true',
}));
const { openPage } = suite;

const phone = { width: 390, height: 844 };
const desktop = { width: 1280, height: 800 };

async function expectFitsAndAccessible(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate<{
    scrollWidth: number;
    innerWidth: number;
  }>('({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth })');
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  expect(await axeViolations(page)).toEqual([]);
}

/** The mail to `address` whose subject is `subject`, waiting for it to arrive. */
async function mailWithSubject(address: string, subject: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const mail = smtp.mailsTo(address).find((candidate) => candidate.subject === subject);
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`no '${subject}' mail to ${address}`);
    await smtp.waitForMail(address, { after: smtp.mailsTo(address).length, timeoutMs: 30_000 });
  }
}

/** The link to `path` (with its token) in that mail. */
async function linkFromMail(address: string, subject: string, path: string): Promise<string> {
  const mail = await mailWithSubject(address, subject);
  const link = new RegExp(`(http://\\S+${path}\\?token=[\\w%.-]+)`).exec(mail.text)?.[1];
  expect(link, mail.text).toBeDefined();
  return link!;
}

const texts = {
  fr: {
    verifySubject: 'Confirmez votre adresse email Cadence',
    banner: /Confirmez votre adresse email .* pour pouvoir publier/,
    resend: 'Renvoyer le lien',
    resent: 'Lien envoyé. Pensez à vérifier vos courriers indésirables.',
    verifyTitle: 'Confirmation de votre adresse',
    verifyButton: 'Confirmer mon adresse',
    verified: 'Votre adresse email est confirmée. Vous pouvez publier.',
    settings: 'Paramètres',
    exportSection: 'Télécharger mes données',
    prepare: 'Préparer mon archive',
    preparing: /Archive demandée|Préparation de votre archive/,
    download: "Télécharger l'archive",
    exportSubject: 'Vos données Cadence sont prêtes',
    profile: 'Profil',
    change: "Changer d'adresse email",
    newEmail: 'Nouvelle adresse email',
    password: 'Votre mot de passe, pour confirmer',
    send: 'Envoyer le lien de confirmation',
    sent: /Si cette adresse peut être utilisée/,
    pending: (email: string) => `En attente de confirmation : ${email}`,
    changeSubject: 'Confirmez votre nouvelle adresse email Cadence',
    changeTitle: 'Confirmation de votre nouvelle adresse',
    changeButton: 'Confirmer cette adresse',
    changed: (email: string) => `Votre adresse email est maintenant ${email}.`,
    noticeSubject: 'L’adresse email de votre compte Cadence a changé',
  },
  en: {
    verifySubject: 'Confirm your Cadence email address',
    banner: /Confirm your email address .* to be able to publish/,
    resend: 'Resend the link',
    resent: 'Link sent. Check your spam folder too.',
    verifyTitle: 'Confirming your address',
    verifyButton: 'Confirm my address',
    verified: 'Your email address is confirmed. You can publish.',
    settings: 'Settings',
    exportSection: 'Download my data',
    prepare: 'Prepare my archive',
    preparing: /Archive requested|Preparing your archive/,
    download: 'Download the archive',
    exportSubject: 'Your Cadence data is ready',
    profile: 'Profile',
    change: 'Change email address',
    newEmail: 'New email address',
    password: 'Your password, to confirm',
    send: 'Send the confirmation link',
    sent: /If this address can be used/,
    pending: (email: string) => `Waiting for confirmation: ${email}`,
    changeSubject: 'Confirm your new Cadence email address',
    changeTitle: 'Confirming your new address',
    changeButton: 'Confirm this address',
    changed: (email: string) => `Your email address is now ${email}.`,
    noticeSubject: 'The email address of your Cadence account changed',
  },
} as const;

describe('my account: verification, data export, email change', () => {
  for (const { language, viewport } of [
    { language: 'fr', viewport: phone },
    { language: 'en', viewport: desktop },
  ] as const) {
    const text = texts[language];
    it(`in ${language === 'fr' ? 'French' : 'English'} at ${viewport.width} px`, async () => {
      const page = await openPage({ viewport });
      await page.addInitScript(`localStorage.setItem('cadence.language', '${language}')`);
      const user = await signUp(page, newUser(`people3-${language}`));

      // The banner until the address is confirmed, with a 'resend' link.
      const banner = page.getByRole('status').filter({ hasText: text.banner });
      await banner.waitFor();
      await expectFitsAndAccessible(page);
      const before = smtp.mailsTo(user.email).length;
      await banner.getByRole('button', { name: text.resend }).click();
      await banner.getByText(text.resent).waitFor();
      await smtp.waitForMail(user.email, { after: before });
      const verifyLink = await linkFromMail(user.email, text.verifySubject, '/verify-email');
      await page.goto(verifyLink);
      await page.getByRole('heading', { name: text.verifyTitle }).waitFor();
      await expectFitsAndAccessible(page);
      await page.getByRole('button', { name: text.verifyButton }).click();
      await page.getByText(text.verified).waitFor();

      // Download my data: asked, prepared by the job (progress shown), downloaded, a valid ZIP.
      await page.goto('/settings');
      await page.getByRole('heading', { level: 1, name: text.settings }).waitFor();
      expect(await page.getByText(text.banner).count()).toBe(0);
      const section = page.getByRole('region', { name: text.exportSection });
      await section.getByRole('button', { name: text.prepare }).click();
      const download = section.getByRole('link', { name: text.download });
      await Promise.race([
        section.getByText(text.preparing).waitFor(),
        download.waitFor({ timeout: 60_000 }),
      ]);
      await download.waitFor({ timeout: 60_000 });
      await expectFitsAndAccessible(page);
      const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
      expect(file.suggestedFilename()).toMatch(/^cadence-data-\d{4}-\d{2}-\d{2}\.zip$/);
      const archive = await readZip(await readFile(await file.path()));
      const profile: unknown = JSON.parse(archive.get('profile.json')?.toString() ?? 'null');
      expect(profile).toEqual([expect.objectContaining({ email: user.email, name: user.name })]);
      expect(archive.has('posts.json')).toBe(true);
      expect((await mailWithSubject(user.email, text.exportSubject)).text).toContain(
        '/settings#data-export',
      );

      // Email change: a link to the new address; the old one is told once it is opened.
      const newEmail = `new-${user.email}`;
      const profileSection = page.getByRole('region', { name: text.profile });
      await profileSection.getByRole('button', { name: text.change }).click();
      await profileSection.getByLabel(text.newEmail).fill(newEmail);
      await profileSection.getByLabel(text.password).fill(user.password);
      await profileSection.getByRole('button', { name: text.send }).click();
      await profileSection.getByText(text.sent).waitFor();
      await profileSection.getByText(text.pending(newEmail)).waitFor();
      await expectFitsAndAccessible(page);
      const changeLink = await linkFromMail(newEmail, text.changeSubject, '/settings/email');
      await page.goto(changeLink);
      await page.getByRole('heading', { name: text.changeTitle }).waitFor();
      await page.getByRole('button', { name: text.changeButton }).click();
      await page.getByText(text.changed(newEmail)).waitFor();
      await expectFitsAndAccessible(page);
      expect((await mailWithSubject(user.email, text.noticeSubject)).text).toContain(newEmail);
      await page.goto('/settings');
      await page.getByRole('region', { name: text.profile }).getByText(newEmail).waitFor();
    });
  }
});
