import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startSmtpTestServer,
  type SmtpTestServer,
} from '../apps/server/src/test-support/smtp-test-server.ts';
import {
  chooseAccount,
  addAccount,
  connectThroughSandbox,
  focusedElement,
  focusedLabel,
  type FocusedElement,
  logIn,
  newUser,
  signUp,
  type TestUser,
} from './support/actions.ts';
import { axeViolations } from './support/axe.ts';
import { useBrowserSuite } from './support/suite.ts';
import { postableClip, useTempVideos } from './support/videos.ts';

// The server sends its mail to a real SMTP server in this process; tests read what arrived.
let smtp: SmtpTestServer;
beforeAll(async () => {
  smtp = await startSmtpTestServer();
});
afterAll(() => smtp.close());

// NODE_ENV=test exposes the sandbox's fault control, used to make TikTok refuse a post.
const suite = useBrowserSuite(() => ({
  NODE_ENV: 'test',
  SMTP_URL: smtp.url,
  MAIL_FROM: 'Cadence <no-reply@cadence.test>',
}));
const { openPage } = suite;

const phone = { width: 390, height: 844 };
const desktop = { width: 1280, height: 800 };

/** The page never scrolls sideways at its viewport width. */
async function expectNoHorizontalScroll(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate<{
    scrollWidth: number;
    innerWidth: number;
  }>('({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth })');
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

async function expectAccessible(page: Page) {
  expect(await axeViolations(page)).toEqual([]);
}

/** The reset link of the latest mail to `user`, after `before` mails. */
async function resetLinkFromMail(user: TestUser, before: number): Promise<string> {
  const mail = await smtp.waitForMail(user.email, { after: before });
  const link = /(http:\/\/\S+\/auth\/reset\?token=[\w-]+)/.exec(mail.text)?.[1];
  expect(link, mail.text).toBeDefined();
  expect(mail.html).toContain(`href="${link}"`);
  return link!;
}

/** What /api/me answers this page's cookie: 200 signed in, 401 once its session ended. */
const sessionStatus = (page: Page) =>
  page.evaluate<number>("fetch('/api/me', { credentials: 'same-origin' }).then((r) => r.status)");

describe('the accessibility check', () => {
  it('finds a known problem, so a clean result means something', async () => {
    const page = await openPage({ viewport: phone });
    await page.goto('/auth/forgot');
    await page.getByRole('heading', { name: 'Mot de passe oublié' }).waitFor();
    await expectAccessible(page);
    await page.evaluate(
      "document.querySelector('main').append(Object.assign(document.createElement('input'), { id: 'unlabelled' }))",
    );
    const violations = await axeViolations(page);
    expect(violations).toContainEqual(expect.objectContaining({ targets: ['#unlabelled'] }));
  });
});

describe('forgot password', () => {
  it('in French at 390 px: a mailed link sets a new password once and signs every session out', async () => {
    const user = newUser();
    const signedIn = await openPage({ viewport: phone });
    await signUp(signedIn, user);

    const page = await openPage({ viewport: phone });
    await page.goto('/auth');
    await page.getByLabel('Email').fill(user.email);
    await page.getByRole('link', { name: 'Mot de passe oublié ?' }).click();
    await page.waitForURL('**/auth/forgot');
    await page.getByRole('heading', { name: 'Mot de passe oublié' }).waitFor();
    // The address typed on the login form came along.
    expect(await page.getByLabel('Email').inputValue()).toBe(user.email);
    await expectNoHorizontalScroll(page);
    await expectAccessible(page);

    const before = smtp.mailsTo(user.email).length;
    await page.getByRole('button', { name: 'Envoyer le lien' }).click();
    await page.getByText(`Si un compte existe pour ${user.email}`).waitFor();
    const mail = await smtp.waitForMail(user.email, { after: before });
    expect(mail.subject).toBe('Réinitialisez votre mot de passe Cadence');
    expect(mail.from).toBe('no-reply@cadence.test');
    const link = await resetLinkFromMail(user, before);
    expect(link.startsWith(suite.server().url)).toBe(true);

    await page.goto(link);
    await page.getByRole('heading', { name: 'Choisissez un nouveau mot de passe' }).waitFor();
    await expectNoHorizontalScroll(page);
    await expectAccessible(page);
    await page.getByLabel('Nouveau mot de passe', { exact: true }).fill('brand-new-1');
    await page.getByLabel('Confirmez le nouveau mot de passe').fill('brand-new-2');
    await page.getByRole('button', { name: 'Enregistrer le mot de passe' }).click();
    await page.getByText('Les deux mots de passe ne correspondent pas').waitFor();
    await page.getByLabel('Confirmez le nouveau mot de passe').fill('brand-new-1');
    await page.getByRole('button', { name: 'Enregistrer le mot de passe' }).click();
    await page
      .getByText('Votre mot de passe a été changé. Connectez-vous avec le nouveau.')
      .waitFor();

    // The session opened before the reset is over.
    expect(await sessionStatus(signedIn)).toBe(401);
    await signedIn.reload();
    await signedIn.waitForURL('**/auth');

    await page.getByRole('link', { name: 'Aller à la connexion' }).click();
    await logIn(page, { ...user, password: 'brand-new-1' });

    // The link worked once.
    const again = await openPage({ viewport: phone });
    await again.goto(link);
    await again.getByLabel('Nouveau mot de passe', { exact: true }).fill('third-pass');
    await again.getByLabel('Confirmez le nouveau mot de passe').fill('third-pass');
    await again.getByRole('button', { name: 'Enregistrer le mot de passe' }).click();
    await again.getByText("Ce lien de réinitialisation n'est plus valable").waitFor();
    await again.getByRole('link', { name: 'Demander un nouveau lien' }).click();
    await again.waitForURL('**/auth/forgot');
  });

  it('in English at 1280 px: an unknown address gets the same answer, and no mail goes out', async () => {
    const page = await openPage({ viewport: desktop });
    await page.addInitScript("localStorage.setItem('cadence.language', 'en')");
    await page.goto('/auth');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    await expectAccessible(page);
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByText('Invalid email address').waitFor();

    const nobody = `nobody-${Date.now()}@example.com`;
    await page.getByLabel('Email').fill(nobody);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page
      .getByText(`If an account exists for ${nobody}, an email with a reset link`)
      .waitFor();
    await expectNoHorizontalScroll(page);

    // A known address, asked after: once its mail arrived, the unknown one had its chance.
    const user = await signUp(await openPage({ viewport: desktop }));
    const other = await openPage({ viewport: desktop });
    await other.addInitScript("localStorage.setItem('cadence.language', 'en')");
    await other.goto('/auth/forgot');
    await other.getByLabel('Email').fill(user.email);
    await other.getByRole('button', { name: 'Send the link' }).click();
    await other.getByText(`If an account exists for ${user.email}`).waitFor();
    // The account's language is French (signed up in French): so is its mail.
    expect((await smtp.waitForMail(user.email)).subject).toBe(
      'Réinitialisez votre mot de passe Cadence',
    );
    expect(smtp.mailsTo(nobody)).toEqual([]);

    await page.goto('/auth/reset?token=AbCdEfGhIjKlMnOpQrStUvWx');
    await page.getByLabel('New password', { exact: true }).fill('brand-new-1');
    await page.getByLabel('Confirm the new password').fill('brand-new-1');
    await page.getByRole('button', { name: 'Save the password' }).click();
    await page
      .getByText('This reset link is no longer valid: it was already used or has expired.')
      .waitFor();
    await expectAccessible(page);
  });
});

describe('settings', () => {
  it('in French at 390 px: changes the name and the password, ending the other sessions', async () => {
    const user = newUser();
    const page = await openPage({ viewport: phone });
    await signUp(page, user);
    const otherDevice = await openPage({ viewport: phone });
    await logIn(otherDevice, user);

    await page.getByRole('button', { name: 'Ouvrir le menu' }).click();
    await page.locator('#mobile-menu').getByRole('link', { name: 'Paramètres' }).click();
    await page.waitForURL('**/settings');
    await page.getByRole('heading', { level: 1, name: 'Paramètres' }).waitFor();
    const sessions = page.getByRole('list', { name: 'Sessions ouvertes' });
    await expect.poll(() => sessions.getByRole('listitem').count()).toBe(2);
    await expect
      .poll(() => sessions.getByRole('listitem').first().textContent())
      .toContain('Cette session');
    await expectNoHorizontalScroll(page);
    await expectAccessible(page);

    await page.getByLabel('Nom', { exact: true }).fill('Zoé Martin');
    await page.getByRole('button', { name: 'Enregistrer le nom' }).click();
    await page.getByText('Nom enregistré.').waitFor();

    await page.getByLabel('Mot de passe actuel').fill('not-my-password');
    await page.getByLabel('Nouveau mot de passe', { exact: true }).fill('changed-pass');
    await page.getByLabel('Confirmez le nouveau mot de passe').fill('changed-pass');
    await page.getByRole('button', { name: 'Changer le mot de passe' }).click();
    await page.getByText('Le mot de passe actuel est incorrect').waitFor();
    expect(await sessionStatus(otherDevice)).toBe(200);

    await page.getByLabel('Mot de passe actuel').fill(user.password);
    await page.getByRole('button', { name: 'Changer le mot de passe' }).click();
    await page
      .getByText('Mot de passe changé. Vos autres sessions ont été déconnectées.')
      .waitFor();
    expect(await sessionStatus(otherDevice)).toBe(401);
    await expect.poll(() => sessions.getByRole('listitem').count()).toBe(1);
    await expectNoHorizontalScroll(page);

    // This session carries on, with the new name.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Paramètres' }).waitFor();
    expect(await page.getByLabel('Nom', { exact: true }).inputValue()).toBe('Zoé Martin');
    await logIn(otherDevice, { ...user, password: 'changed-pass' });
  });

  it('in English at 1280 px: switches the language, renames, and signs out everywhere else', async () => {
    const user = newUser();
    const page = await openPage({ viewport: desktop });
    await signUp(page, user);
    const otherDevice = await openPage({ viewport: desktop });
    await logIn(otherDevice, user);

    await page.getByRole('link', { name: 'Paramètres' }).click();
    await page.waitForURL('**/settings');
    await page.getByRole('radio', { name: 'English' }).check();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await page.getByText('Language saved.').waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    // The header's link is named in the new language too.
    await page.getByRole('link', { name: 'Settings', exact: true }).waitFor();
    await expectNoHorizontalScroll(page);
    await expectAccessible(page);

    await page.getByLabel('Name', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Save the name' }).click();
    await page.getByText('Please fill in all fields').waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Zoé in English');
    await page.getByRole('button', { name: 'Save the name' }).click();
    await page.getByText('Name saved.').waitFor();

    await page.getByLabel('Current password').fill(user.password);
    await page.getByLabel('New password', { exact: true }).fill('abc');
    await page.getByLabel('Confirm the new password').fill('abc');
    await page.getByRole('button', { name: 'Change the password' }).click();
    await page.getByText('Password must be at least 6 characters').waitFor();

    const sessions = page.getByRole('list', { name: 'Open sessions' });
    await expect.poll(() => sessions.getByRole('listitem').count()).toBe(2);
    await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await page.getByText('Your other sessions have been signed out.').waitFor();
    expect(await sessionStatus(otherDevice)).toBe(401);
    expect(await sessionStatus(page)).toBe(200);
    await expect.poll(() => sessions.getByRole('listitem').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Sign out everywhere else' }).isDisabled()).toBe(
      true,
    );

    // The account's language changed with the page: the next sign-in elsewhere is in English.
    const fresh = await openPage({ viewport: desktop });
    await logIn(fresh, user);
    await fresh.getByRole('heading', { name: 'TikTok Automation' }).waitFor();
  });
});

describe('keyboard focus after a settings form is sent', () => {
  // Regression: after each of these, focus fell to <body> (the submit button, disabled while the
  // request ran, lost it; a form that closed took it along), and a refused field was not focused.
  it('in English at 390 px: lands on the refused field, else stays on what was pressed or on the message, for every form', async () => {
    const user = newUser();
    const page = await openPage({ viewport: phone });
    await page.addInitScript("localStorage.setItem('cadence.language', 'en')");
    await signUp(page, user);
    const otherDevice = await openPage({ viewport: phone });
    await logIn(otherDevice, user);
    await page.goto('/settings');
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    const region = (name: string) => page.getByRole('region', { name, exact: true });
    const expectFocus = (expected: Partial<FocusedElement>) =>
      expect.poll(() => focusedElement(page)).toMatchObject(expected);

    /** Each section with something to send, and what sending it does to the focus. */
    const forms: Record<string, () => Promise<void>> = {
      Profile: async () => {
        const profile = region('Profile');
        await profile.getByLabel('Name', { exact: true }).fill('');
        await profile.getByRole('button', { name: 'Save the name' }).click();
        await expectFocus({ tag: 'input', name: 'Name', invalid: true, section: 'Profile' });
        await profile.getByLabel('Name', { exact: true }).fill('Zoé Focus');
        await profile.getByRole('button', { name: 'Save the name' }).click();
        await profile.getByText('Name saved.').waitFor();
        await expectFocus({ tag: 'button', name: 'Save the name' });

        // The email change: opening and cancelling move the focus with the form.
        await profile.getByRole('button', { name: 'Change email address' }).click();
        await expectFocus({ tag: 'input', name: 'New email address' });
        await profile.getByRole('button', { name: 'Cancel' }).click();
        await expectFocus({ tag: 'button', name: 'Change email address' });
        await profile.getByRole('button', { name: 'Change email address' }).click();
        await profile.getByLabel('New email address').fill(`new-${user.email}`);
        await profile.getByLabel('Your password, to confirm').fill('not-my-password');
        await profile.getByRole('button', { name: 'Send the confirmation link' }).click();
        await expectFocus({
          tag: 'input',
          name: 'Your password, to confirm',
          invalid: true,
          description: expect.stringContaining('incorrect'),
        });
        await profile.getByLabel('Your password, to confirm').fill(user.password);
        await profile.getByRole('button', { name: 'Send the confirmation link' }).click();
        // The form closed with the button that held the focus: the message takes it.
        await expectFocus({
          name: expect.stringMatching(/^If this address can be used/),
          section: 'Profile',
        });
      },
      Password: async () => {
        const password = region('Password');
        await password.getByLabel('Current password').fill('not-my-password');
        await password.getByLabel('New password', { exact: true }).fill('changed-pass');
        await password.getByLabel('Confirm the new password').fill('changed-pass');
        await password.getByRole('button', { name: 'Change the password' }).click();
        await expectFocus({
          tag: 'input',
          name: 'Current password',
          invalid: true,
          description: 'The current password is incorrect',
        });
        await password.getByLabel('Current password').fill(user.password);
        await password.getByRole('button', { name: 'Change the password' }).click();
        await password.getByText('Password changed.', { exact: false }).waitFor();
        await expectFocus({ tag: 'button', name: 'Change the password' });
        user.password = 'changed-pass';
      },
      'Time zone': async () => {
        const zone = region('Time zone');
        await zone.getByRole('combobox', { name: 'Time zone' }).fill('tokyo');
        await page.getByRole('option', { name: /^Tokyo/ }).click();
        await zone.getByRole('button', { name: 'Save time zone' }).click();
        await zone.getByText('Time zone saved: Tokyo time.').waitFor();
        await expectFocus({ tag: 'button', name: 'Save time zone' });
      },
      Notifications: async () => {
        const notifications = region('Notifications');
        await notifications.getByRole('checkbox', { name: 'Post published' }).check();
        await notifications.getByRole('button', { name: 'Save notifications' }).click();
        await notifications.getByText('Notification preferences saved.').waitFor();
        await expectFocus({ tag: 'button', name: 'Save notifications' });
      },
      Sessions: async () => {
        await logIn(otherDevice, user);
        await page.reload();
        const sessions = region('Sessions');
        await expect.poll(() => sessions.getByRole('listitem').count()).toBe(2);
        await sessions.getByRole('button', { name: /^Sign out the .* session of / }).click();
        // Its row is gone: the message takes the focus.
        await expectFocus({ name: 'Session signed out.', section: 'Sessions' });
        await logIn(otherDevice, user);
        await page.reload();
        await expect.poll(() => sessions.getByRole('listitem').count()).toBe(2);
        await sessions.getByRole('button', { name: 'Sign out everywhere else' }).click();
        await sessions.getByText('Your other sessions have been signed out.').waitFor();
        await expectFocus({ tag: 'button', name: 'Sign out everywhere else' });
      },
      'Download my data': async () => {
        const data = region('Download my data');
        await data.getByRole('button', { name: 'Prepare my archive' }).click();
        await data.getByText(/^(Archive requested|Preparing your archive)/).waitFor();
        await expectFocus({ tag: 'button', name: 'Prepare a new archive' });
      },
      'Delete my account': async () => {
        const remove = region('Delete my account');
        await remove.getByLabel('Your password, to confirm').fill('not-my-password');
        await remove.getByRole('button', { name: 'Delete my account for good' }).click();
        await expectFocus({
          tag: 'input',
          name: 'Your password, to confirm',
          invalid: true,
          description: 'The current password is incorrect',
          section: 'Delete my account',
        });
      },
    };
    // Every section that sends something is above: a new form fails here until it is added (and
    // passes only once its focus is looked after). The language is applied as it is picked.
    const sending = () =>
      page
        .locator('main section[aria-labelledby]')
        .filter({ has: page.locator('button') })
        .locator('h2')
        .allTextContents();
    // Polled: the sessions and the notification choices load after the page.
    await expect.poll(async () => (await sending()).sort()).toEqual(Object.keys(forms).sort());
    for (const [name, send] of Object.entries(forms)) {
      try {
        await send();
      } catch (error) {
        throw new Error(`${name}: ${String(error)}`, { cause: error });
      }
    }
  });
});

describe('notifications', () => {
  const videos = useTempVideos('cadence-people-e2e-', {
    'bell-clip.mp4': { ...postableClip, durationSeconds: 2 },
  });

  /** Schedules the bell clip now on @`handle` through the scheduler's form (French). */
  async function publishNow(page: Page, handle: string, caption: string) {
    await page.goto('/scheduler');
    await page.getByRole('button', { name: 'Nouvelle programmation' }).first().click();
    const form = page.getByRole('dialog', { name: 'Nouvelle programmation' });
    const video = videos.path('bell-clip.mp4');
    await form.getByLabel('Importer des vidéos').setInputFiles([video]);
    const bar = form.getByRole('progressbar', {
      name: `Progression de l'envoi de ${path.basename(video)}`,
    });
    await bar.waitFor();
    await page.waitForFunction(
      (element) => element?.getAttribute('aria-valuetext') === 'Prête',
      await bar.elementHandle(),
      { timeout: 30_000 },
    );
    await chooseAccount(form.getByRole('combobox', { name: 'Compte TikTok' }), handle);
    await form.getByTestId('creator-nickname').waitFor();
    await form.getByLabel('Qui peut voir cette vidéo').selectOption('SELF_ONLY');
    await form.getByLabel(`Légende de ${path.basename(video)}`).fill(caption);
    await form.getByLabel(/^J'accepte et je confirme/).check();
    await page.getByRole('button', { name: 'Programmer', exact: true }).click();
    await form.waitFor({ state: 'detached' });
  }

  it('in French at 390 px: a failed post rings the bell live, with the reason and a Reprogrammer link', async () => {
    const page = await openPage({ viewport: phone });
    await signUp(page);
    const handle = 'bell_creator';
    await addAccount(page, handle);
    await connectThroughSandbox(page, handle, handle);
    const bell = page.getByTestId('notification-bell');
    await expect(bell.getAttribute('aria-label')).resolves.toBe('Notifications');

    const fault = await page.request.post('/sandbox/tiktok/_control/faults', {
      data: {
        action: 'fail_next',
        endpoint: 'video_init',
        failure: { type: 'error_body', code: 'spam_risk_user_banned_from_posting', status: 403 },
      },
    });
    expect(fault.status()).toBe(200);
    await publishNow(page, handle, 'Sonne la cloche');
    // Pushed over the event stream: the list's own fallback polls only once a minute.
    await page.goto('/tiktok');
    await page
      .getByTestId('notification-count')
      .getByText('1', { exact: true })
      .waitFor({ timeout: 20_000 });
    await expect(bell.getAttribute('aria-label')).resolves.toBe('Notifications, 1 non lue(s)');

    await bell.click();
    const panel = page.getByTestId('notification-panel');
    const item = panel.getByTestId('notification-item').first();
    await expect
      .poll(() => item.textContent())
      .toContain(
        "La publication de « Sonne la cloche » sur @bell_creator a échoué : TikTok a suspendu la publication pour ce compte. Consultez les notifications du compte dans l'app TikTok : réessayer ne servira à rien avant que TikTok lève la suspension.",
      );
    // Opening marks it read.
    await page.getByTestId('notification-count').waitFor({ state: 'detached' });
    await expectNoHorizontalScroll(page);
    const box = await panel.boundingBox();
    expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= 390).toBe(true);
    await expectAccessible(page);

    await panel.getByRole('link', { name: 'Reprogrammer' }).click();
    await page.waitForURL('**/scheduler/history');
    await page.getByRole('button', { name: /^Réessayer la publication/ }).waitFor();
    await expect.poll(() => focusedLabel(page)).toMatch(/^Réessayer la publication/);
    expect((await page.request.get('/api/notifications').then((r) => r.json())).unread).toBe(0);
  });

  it('in English at 1280 px: the bell fits the header, and email choices are saved in /settings', async () => {
    const page = await openPage({ viewport: desktop });
    await page.addInitScript("localStorage.setItem('cadence.language', 'en')");
    await signUp(page);
    await page.goto('/settings');
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    const bell = page.getByTestId('notification-bell');
    const logout = await page.getByRole('button', { name: 'Log out' }).boundingBox();
    expect((logout?.x ?? Infinity) + (logout?.width ?? 0)).toBeLessThanOrEqual(1280);
    await bell.click();
    const panel = page.getByTestId('notification-panel');
    await panel.getByText('No notifications yet.').waitFor();
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });

    const section = page.getByRole('region', { name: 'Notifications' });
    await section.getByRole('checkbox', { name: 'Post failed' }).waitFor();
    expect(await section.getByRole('checkbox', { name: 'Post failed' }).isChecked()).toBe(true);
    expect(await section.getByRole('checkbox', { name: 'Post published' }).isChecked()).toBe(false);
    await section.getByRole('checkbox', { name: 'Post published' }).check();
    await section.getByRole('checkbox', { name: 'One email a day (daily digest)' }).check();
    await section.getByRole('button', { name: 'Save notifications' }).click();
    await section.getByText('Notification preferences saved.').waitFor();
    await expectNoHorizontalScroll(page);
    await expectAccessible(page);
    await page.reload();
    await section.getByRole('checkbox', { name: 'Post published' }).waitFor();
    expect(await section.getByRole('checkbox', { name: 'Post published' }).isChecked()).toBe(true);
  });
});

describe('deleting my account', () => {
  for (const { language, viewport, texts } of [
    {
      language: 'fr',
      viewport: phone,
      texts: {
        heading: 'Paramètres',
        section: 'Supprimer mon compte',
        password: 'Votre mot de passe, pour confirmer',
        submit: 'Supprimer définitivement mon compte',
        wrong: 'Le mot de passe actuel est incorrect',
        wrongCredentials: 'Email ou mot de passe incorrect',
        login: 'Se connecter',
        deleted: 'Votre compte et toutes ses données ont été supprimés.',
        mailSubject: 'Votre compte Cadence a été supprimé',
        mailRevoked: "L'accès de Cadence à vos comptes TikTok a été révoqué",
      },
    },
    {
      language: 'en',
      viewport: desktop,
      texts: {
        heading: 'Settings',
        section: 'Delete my account',
        password: 'Your password, to confirm',
        submit: 'Delete my account for good',
        wrong: 'The current password is incorrect',
        wrongCredentials: 'Incorrect email or password',
        login: 'Log in',
        deleted: 'Your account and all its data were deleted.',
        mailSubject: 'Your Cadence account was deleted',
        mailRevoked: "Cadence's access to your TikTok accounts was revoked",
      },
    },
  ] as const) {
    it(`in ${language === 'fr' ? 'French' : 'English'} at ${viewport.width} px: takes the password again, says goodbye on /auth and by mail, then nothing signs in`, async () => {
      const page = await openPage({ viewport });
      await page.addInitScript(`localStorage.setItem('cadence.language', '${language}')`);
      const user = await signUp(page);
      await page.goto('/settings');
      await page.getByRole('heading', { level: 1, name: texts.heading }).waitFor();
      const section = page.getByRole('region', { name: texts.section });
      await section.getByLabel(texts.password).fill('not-my-password');
      await section.getByRole('button', { name: texts.submit }).click();
      await section.getByText(texts.wrong).waitFor();
      await expectNoHorizontalScroll(page);
      await expectAccessible(page);
      expect(await sessionStatus(page)).toBe(200);

      await section.getByLabel(texts.password).fill(user.password);
      await section.getByRole('button', { name: texts.submit }).click();
      // Regression: the plain sign-in page, no word of the deletion, and no mail.
      await page.getByRole('status').filter({ hasText: texts.deleted }).waitFor();
      // The notice takes the focus as the screen opens, so it is read out (app/route-focus.ts).
      await expect.poll(() => focusedElement(page)).toMatchObject({ name: texts.deleted });
      // Said once: the address loses the parameter that asked for it.
      await page.waitForURL((url) => url.pathname === '/auth' && url.search === '');
      await expectAccessible(page);
      const goodbye = await smtp.waitForMail(user.email);
      expect(goodbye.subject).toBe(texts.mailSubject);
      expect(goodbye.text).toContain(texts.mailRevoked);
      expect(await sessionStatus(page)).toBe(401);
      await page.getByLabel('Email').fill(user.email);
      await page.getByLabel(/^(Mot de passe|Password)$/).fill(user.password);
      await page.getByRole('button', { name: texts.login, exact: true }).click();
      await page.getByText(texts.wrongCredentials).waitFor();
    });
  }
});
