import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { scheduleBody } from '../apps/server/src/test-support/schedule-body.ts';
import {
  accountCard as card,
  accountsBanner as banner,
  addAccount,
  connectThroughSandbox,
  mismatchDialog,
  signUp,
} from './support/actions.ts';
import { axeViolations } from './support/axe.ts';
import { uploadVideo } from './support/posts.ts';
import { useBrowserSuite } from './support/suite.ts';
import { postableClip, useTempVideos } from './support/videos.ts';

// NODE_ENV=test exposes the sandbox's fault control, used to make TikTok refuse an account's tokens.
const { openPage } = useBrowserSuite({ NODE_ENV: 'test' });
const videos = useTempVideos('cadence-accounts-e2e-', { 'clip.mp4': postableClip });

const cards = (page: Page) => page.getByRole('article');

/** Schedules each video for a day far ahead on the account, through the API: pending posts. */
async function schedulePending(page: Page, accountId: string, captions: string[]) {
  const mediaIds: string[] = [];
  while (mediaIds.length < captions.length)
    mediaIds.push(await uploadVideo(page, videos.path('clip.mp4')));
  const body = scheduleBody(accountId, mediaIds, {
    publishType: 'scheduled',
    date: '2099-01-01',
    time: '09:00',
    posts: mediaIds.map((mediaId, index) => ({ mediaId, title: captions[index] ?? '' })),
    privacyLevel: 'SELF_ONLY',
    allowComment: false,
  });
  const response = await page.request.post('/api/schedules', { data: body });
  expect(response.status(), await response.text()).toBe(201);
}

async function listAccounts(page: Page) {
  const response = await page.request.get('/api/accounts');
  expect(response.status()).toBe(200);
  return (await response.json()).accounts as { id: string; username: string; status: string }[];
}

describe('TikTok accounts screen', () => {
  it('adds an account, ignores an empty name, refuses a duplicate, connects through TikTok and keeps one card', async () => {
    const page = await openPage();
    await signUp(page);
    await page.getByRole('heading', { name: 'Automatisation TikTok' }).waitFor();
    await page.getByRole('heading', { name: 'Aucun compte TikTok ajouté' }).waitFor();

    // Empty after trimming: nothing happens, silently (spec §5).
    await page.getByRole('button', { name: 'Ajouter un compte' }).click();
    const field = page.getByLabel("Nom d'utilisateur TikTok");
    await field.fill('   ');
    await page.getByRole('button', { name: 'Ajouter', exact: true }).click();
    await field.waitFor();
    await expect(page.getByRole('alert').count()).resolves.toBe(0);
    await expect(cards(page).count()).resolves.toBe(0);

    await field.fill('luna');
    await page.getByRole('button', { name: 'Ajouter', exact: true }).click();
    await card(page, 'luna').getByText('Non connecté').waitFor();
    await expect(field.count()).resolves.toBe(0);
    await card(page, 'luna').getByText('Connectez ce compte à TikTok').waitFor();
    await expect(card(page, 'luna').getByText('Publications programmées').count()).resolves.toBe(0);

    // Opened again: the field is empty; a duplicate (any case) is refused under the field.
    await page.getByRole('button', { name: 'Ajouter un compte' }).click();
    await expect(field.inputValue()).resolves.toBe('');
    await field.fill('LUNA');
    await page.getByRole('button', { name: 'Ajouter', exact: true }).click();
    await page.getByText('Ce compte figure déjà dans votre liste').waitFor();
    await expect(field.getAttribute('aria-invalid')).resolves.toBe('true');
    // Full-width letters are the same account; a zero-width space would make a look-alike card.
    await field.fill('ＬＵＮＡ');
    await page.getByRole('button', { name: 'Ajouter', exact: true }).click();
    await page.getByText('Ce compte figure déjà dans votre liste').waitFor();
    await field.fill('lu\u200Bna');
    await page.getByRole('button', { name: 'Ajouter', exact: true }).click();
    await page.getByText('ne peut contenir ni espace ni caractère invisible').waitFor();
    await expect(field.getAttribute('aria-invalid')).resolves.toBe('true');
    await page.getByRole('button', { name: 'Annuler' }).click();
    await expect(field.count()).resolves.toBe(0);
    await expect(cards(page).count()).resolves.toBe(1);

    const callbacks: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/auth/callback') callbacks.push(request.url());
    });
    // The consent page offers the card's name; another TikTok user is authorised instead: the
    // card changes only once the person keeps it.
    const offered = await connectThroughSandbox(
      page,
      'luna',
      'luna_tiktok',
      'Authorize',
      'mismatch',
    );
    expect(offered).toBe('luna');
    const warning = mismatchDialog(page);
    await warning
      .getByText('Vous avez autorisé @luna_tiktok, mais cette carte est @luna.')
      .waitFor();
    await warning.getByRole('button', { name: 'Garder @luna_tiktok' }).click();
    await warning.waitFor({ state: 'detached' });
    await expect
      .poll(() => banner(page).textContent())
      .toBe('Compte TikTok connecté : @luna_tiktok');
    const connected = card(page, 'luna_tiktok');
    await connected.getByText('Connecté', { exact: true }).waitFor();
    await connected.getByRole('img', { name: /^Photo de profil de / }).waitFor();
    await connected.getByText('Publications programmées : 0').waitFor();
    await connected.getByText('Prochaine publication : Aucune').waitFor();
    await expect(cards(page).count()).resolves.toBe(1);

    await page.reload();
    await connected.getByText('Connecté', { exact: true }).waitFor();
    await expect(cards(page).count()).resolves.toBe(1);
    await expect(banner(page).count()).resolves.toBe(0);

    // The same TikTok user through a second card: the first card is updated, no duplicate.
    await addAccount(page, 'luna-again');
    await expect(cards(page).count()).resolves.toBe(2);
    await connectThroughSandbox(page, 'luna-again', 'luna_tiktok', 'Authorize', 'mismatch');
    await warning
      .getByText(
        'Garder : la connexion va à votre carte @luna_tiktok, qui est déjà ce compte TikTok.',
      )
      .waitFor();
    await warning.getByRole('button', { name: 'Garder @luna_tiktok' }).click();
    await expect
      .poll(() => banner(page).textContent())
      .toBe('Compte TikTok connecté : @luna_tiktok');
    await expect(cards(page).count()).resolves.toBe(1);
    await connected.getByText('Connecté', { exact: true }).waitFor();

    // A used callback link (its state is single-use) comes back as a clear, red message.
    expect(callbacks.length).toBeGreaterThan(0);
    await page.goto(callbacks[0]!);
    await page.waitForURL((url) => url.pathname === '/tiktok' && url.search === '');
    await page
      .getByRole('alert')
      .getByText('Ce lien de connexion a expiré ou a déjà été utilisé')
      .waitFor();
    await page.getByRole('button', { name: 'Fermer le message' }).click();
    await expect(banner(page).count()).resolves.toBe(0);
    await expect(cards(page).count()).resolves.toBe(1);
  });

  it('shows a red banner when the person denies, in French and then in English', async () => {
    const page = await openPage();
    await signUp(page);
    await addAccount(page, 'denier');
    await connectThroughSandbox(page, 'denier', 'denier', 'Deny');
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent()).toBe('Erreur lors de la connexion à TikTok');
    await card(page, 'denier').getByText('Non connecté').waitFor();
    await page.getByRole('button', { name: 'Fermer le message' }).click();
    await expect(alert.count()).resolves.toBe(0);

    await page.getByRole('button', { name: 'EN' }).first().click();
    await page.getByRole('heading', { name: 'TikTok Automation' }).waitFor();
    await card(page, 'denier').getByText('Not connected').waitFor();
    await connectThroughSandbox(page, 'denier', 'denier', 'Deny');
    await expect.poll(() => alert.textContent()).toBe('Error connecting to TikTok');

    // Each outcome the server can send back, in English.
    await page.goto('/tiktok?error=token');
    await page.getByRole('alert').getByText('Error retrieving access token').waitFor();
    await page.waitForURL((url) => url.search === '');
    await page.reload();
    await page.getByRole('heading', { name: 'TikTok Automation' }).waitFor();
    await expect(banner(page).count()).resolves.toBe(0);
  });

  it('saves per-account settings, schedules from the card, and deletes after confirmation', async () => {
    const page = await openPage();
    await signUp(page);
    await addAccount(page, 'maya_creates');
    await connectThroughSandbox(page, 'maya_creates', 'maya_creates');
    const maya = card(page, 'maya_creates');
    const [account] = await listAccounts(page);
    expect(account).toMatchObject({ username: 'maya_creates', status: 'connected' });

    await maya.getByRole('button', { name: /^Paramètres/ }).click();
    let dialog = page.getByRole('dialog', { name: 'Paramètres de @maya_creates' });
    const privacy = dialog.getByLabel('Visibilité par défaut');
    // Nothing is preselected until the person saves a choice.
    await expect(privacy.inputValue()).resolves.toBe('');
    await privacy.selectOption({ label: 'Moi uniquement' });
    await dialog.getByLabel('Autoriser les commentaires').check();
    await dialog.getByLabel('Autoriser les Collages').check();
    await dialog.getByRole('button', { name: 'Enregistrer', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Paramètres de @maya_creates enregistrés').waitFor();

    await page.reload();
    await maya.getByRole('button', { name: /^Paramètres/ }).click();
    dialog = page.getByRole('dialog', { name: 'Paramètres de @maya_creates' });
    await expect(dialog.getByLabel('Visibilité par défaut').inputValue()).resolves.toBe(
      'SELF_ONLY',
    );
    await expect(dialog.getByLabel('Autoriser les commentaires').isChecked()).resolves.toBe(true);
    await expect(dialog.getByLabel('Autoriser les Duos').isChecked()).resolves.toBe(false);
    await expect(dialog.getByLabel('Autoriser les Collages').isChecked()).resolves.toBe(true);
    // An abandoned edit is not kept: Escape closes, and the next opening shows what is saved.
    await dialog.getByLabel('Autoriser les Duos').check();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await maya.getByRole('button', { name: /^Paramètres/ }).click();
    await expect(dialog.getByLabel('Autoriser les Duos').isChecked()).resolves.toBe(false);
    await dialog.getByRole('button', { name: 'Annuler' }).click();

    await maya.getByRole('link', { name: /^Programmer/ }).click();
    await page.waitForURL(`**/scheduler?account=${account!.id}`);
    await page.goBack();

    // The dialog says how many pending posts go with the account: two, scheduled for later.
    await schedulePending(page, account!.id, ['Premier brouillon', 'Second brouillon']);
    await page.reload();
    // Back at once, before the scheduler had dropped ?account= from its address: Back still lands
    // here, and the entry is not rewritten into the scheduler's (lib/drop-search-params.ts).
    expect(new URL(page.url()).pathname).toBe('/tiktok');
    await maya.getByText('Publications programmées : 2').waitFor();
    await maya.getByRole('button', { name: 'Supprimer @maya_creates' }).click();
    const confirm = page.getByRole('dialog', { name: 'Supprimer @maya_creates ?' });
    await confirm.getByText('2 publications programmées seront annulées.').waitFor();
    await confirm.getByRole('button', { name: 'Annuler' }).click();
    await confirm.waitFor({ state: 'detached' });
    await expect(maya.count()).resolves.toBe(1);

    await maya.getByRole('button', { name: 'Supprimer @maya_creates' }).click();
    await confirm.getByRole('button', { name: 'Supprimer', exact: true }).click();
    await confirm.waitFor({ state: 'detached' });
    await page
      .getByText('Compte @maya_creates supprimé. 2 publications programmées ont été annulées.')
      .waitFor();
    await page.getByRole('heading', { name: 'Aucun compte TikTok ajouté' }).waitFor();
    await expect(listAccounts(page)).resolves.toEqual([]);

    // The posts stay in the scheduler's history, cancelled, under the account's name.
    await page.goto('/scheduler/history');
    for (const caption of ['Premier brouillon', 'Second brouillon']) {
      const item = page.getByRole('article', { name: `Publication de @maya_creates : ${caption}` });
      await item.locator('[data-status]').getByText('Annulée', { exact: true }).waitFor();
      await item.getByText('compte supprimé').waitFor();
      await expect(item.getByRole('button').count()).resolves.toBe(0);
    }
  });

  // Issue 12: 'Vous avez autorisé @x, mais cette carte est @y' — nothing changes until the person
  // keeps it (the card is renamed) or cancels (nothing changes, TikTok's grant is revoked).
  it('warns when another TikTok account was authorised: cancel and keep, in French then English', async () => {
    const page = await openPage();
    await signUp(page);
    await addAccount(page, 'zoe');
    const warning = mismatchDialog(page);

    expect(await connectThroughSandbox(page, 'zoe', 'zoe_other', 'Authorize', 'mismatch')).toBe(
      'zoe',
    );
    await warning.getByText('Vous avez autorisé @zoe_other, mais cette carte est @zoe.').waitFor();
    await warning.getByText('Garder : la carte @zoe devient @zoe_other.').waitFor();
    await warning
      .getByText(
        "Annuler : rien ne change, et l'accès que vous venez de donner à Cadence est retiré chez TikTok.",
      )
      .waitFor();
    expect(await axeViolations(page, '[role="dialog"]')).toEqual([]);
    await warning.getByRole('button', { name: 'Annuler', exact: true }).click();
    await warning.waitFor({ state: 'detached' });
    await expect
      .poll(() => banner(page).textContent())
      .toBe("Rien n'a changé : l'accès donné à Cadence pour ce compte TikTok a été retiré.");
    await card(page, 'zoe').getByText('Non connecté').waitFor();
    expect(await listAccounts(page)).toEqual([
      expect.objectContaining({ username: 'zoe', status: 'not_connected' }),
    ]);

    await page.getByRole('button', { name: 'EN' }).first().click();
    await page.getByRole('heading', { name: 'TikTok Automation' }).waitFor();
    await connectThroughSandbox(page, 'zoe', 'zoe_other', 'Authorize', 'mismatch');
    await warning.getByText('You authorised @zoe_other, but this card is @zoe.').waitFor();
    // Closing the dialog is a cancel, as its close button says.
    await warning.getByRole('button', { name: 'Close (cancels)' }).click();
    await warning.waitFor({ state: 'detached' });
    await expect
      .poll(() => banner(page).textContent())
      .toBe('Nothing changed: the access given to Cadence for that TikTok account was withdrawn.');
    await card(page, 'zoe').getByText('Not connected').waitFor();

    await connectThroughSandbox(page, 'zoe', 'zoe_other', 'Authorize', 'mismatch');
    await warning.getByText('Keep: the card @zoe becomes @zoe_other.').waitFor();
    expect(await axeViolations(page, '[role="dialog"]')).toEqual([]);
    await warning.getByRole('button', { name: 'Keep @zoe_other' }).click();
    await warning.waitFor({ state: 'detached' });
    await expect
      .poll(() => banner(page).textContent())
      .toBe('TikTok account connected: @zoe_other');
    await card(page, 'zoe_other').getByText('Connected', { exact: true }).waitFor();
    expect(await listAccounts(page)).toEqual([
      expect.objectContaining({ username: 'zoe_other', status: 'connected' }),
    ]);
  });

  it('says in the scheduler form that an account must be reconnected when TikTok refuses its tokens', async () => {
    const page = await openPage();
    await signUp(page);
    await addAccount(page, 'fading');
    await connectThroughSandbox(page, 'fading', 'fading');
    const form = page.getByRole('dialog', { name: /^(Nouvelle programmation|New schedule)$/ });

    /** TikTok refuses the access token, then the refresh token (the person removed the app). */
    async function refuseTokens() {
      const fault = await page.request.post('/sandbox/tiktok/_control/faults', {
        data: [
          {
            action: 'fail_next',
            endpoint: 'creator_info',
            failure: { type: 'error_body', code: 'access_token_invalid', status: 401 },
          },
          {
            action: 'fail_next',
            endpoint: 'token',
            failure: { type: 'error_body', code: 'invalid_grant', status: 200 },
          },
        ],
      });
      expect(fault.status()).toBe(200);
    }

    await refuseTokens();
    await card(page, 'fading')
      .getByRole('link', { name: /^Programmer/ })
      .click();
    await form
      .getByRole('alert')
      .getByText(
        'La connexion de ce compte à TikTok a expiré. Reconnectez-le depuis la page Comptes TikTok pour reprendre les publications.',
      )
      .waitFor();
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });
    await page.goto('/tiktok');
    await card(page, 'fading').getByText('Reconnexion nécessaire').waitFor();

    // Reconnected, then refused again, in English.
    await connectThroughSandbox(page, 'fading', 'fading');
    await card(page, 'fading').getByText('Connecté', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'EN' }).first().click();
    await refuseTokens();
    await card(page, 'fading')
      .getByRole('link', { name: /^Schedule/ })
      .click();
    await form
      .getByRole('alert')
      .getByText(
        "This account's connection to TikTok has expired. Reconnect it on the TikTok accounts page to resume publishing.",
      )
      .waitFor();
  });

  it('works at phone width', async () => {
    const page = await openPage({ viewport: { width: 390, height: 844 } });
    await signUp(page);
    await page.getByRole('button', { name: 'Ajouter mon premier compte' }).click();
    await page.getByLabel("Nom d'utilisateur TikTok").fill('phone_user');
    await page.keyboard.press('Enter');
    await card(page, 'phone_user').waitFor();
    await connectThroughSandbox(page, 'phone_user', 'phone_user');
    const phone = card(page, 'phone_user');
    await phone.getByText('Connecté', { exact: true }).waitFor();
    // A long name (up to 64 characters) is cut short on its card, not pushed off screen.
    await addAccount(page, 'a_really_long_creator_name_that_goes_on_and_on_and_on');
    for (const each of await cards(page).all()) {
      const box = await each.boundingBox();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    }
    // Nothing overflows sideways.
    const scrollWidth = Number(await page.evaluate('document.documentElement.scrollWidth'));
    expect(scrollWidth).toBeLessThanOrEqual(390);

    // The confirmation keeps its close button on screen however long the name.
    const longName = 'a_really_long_creator_name_that_goes_on_and_on_and_on';
    await card(page, longName)
      .getByRole('button', { name: /^Supprimer @/ })
      .click();
    const close = page.getByRole('dialog').getByRole('button', { name: 'Fermer' });
    const closeBox = await close.boundingBox();
    expect(closeBox!.x + closeBox!.width).toBeLessThanOrEqual(390);
    await close.click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
  });
});
