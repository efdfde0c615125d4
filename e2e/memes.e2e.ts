import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { burstsPlan, makeSyntheticVideo } from '../apps/server/src/test-support/media-fixtures.ts';
import { holdUploadBytes, leavingAsks, signUpThroughApi } from './support/actions.ts';
import { axeViolations } from './support/axe.ts';
import { runAdmin } from './support/server.ts';
import { useBrowserSuite } from './support/suite.ts';

let dir: string;
let videoPath: string;

// Registered before the suite, so the folder exists when the server's environment is read, and
// (after hooks run in reverse) it is removed only once the server has stopped.
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'cadence-memes-e2e-'));
  // The meme source the engine's and the API's tests analyse (~80 s, three loud bursts, 320×180):
  // rendered once per machine. The meme form takes any readable video (no TikTok minimum).
  videoPath = await makeSyntheticVideo(path.join(dir, 'sketch.mp4'), burstsPlan());
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const suite = useBrowserSuite(() => ({
  // A machine without yt-dlp: the path the link stage really takes here.
  YTDLP_PATH: path.join(dir, 'no-yt-dlp-here'),
  // 2-core CI: the fastest x264 preset keeps the compilation well inside the test's time.
  MEME_COMPILE_PRESET: 'ultrafast',
}));
const { openPage } = suite;

async function signUpPro(page: Page): Promise<void> {
  const user = await signUpThroughApi(page);
  await runAdmin(suite.server(), 'pro', 'grant', user.email);
  await page.goto('/memes');
  await page.getByRole('heading', { name: 'Détecteur de Memes YouTube' }).waitFor();
}

const detectButton = (page: Page) =>
  page.getByRole('button', { name: /^(Détecter les memes|Analyse en cours\.\.\.)$/ });

describe('meme detector', () => {
  // A link of the nav bar left the page and silently stopped its upload (and closing the tab did
  // not warn either). The upload's PATCH requests are held, so it stays in progress.
  it('asks before a link leaves the page during an upload: continue stays, abandon stops it and goes', async () => {
    const page = await openPage();
    await signUpPro(page);
    await page.getByText('Fichier vidéo').click();
    const held = await holdUploadBytes(page);
    await page.getByLabel('Vidéo à analyser').setInputFiles(videoPath);
    await expect.poll(() => held.length).toBe(1);
    // Its progress as every upload shows it: a progressbar named after the file (it had none).
    const bar = page.getByRole('progressbar', {
      name: `Progression de l'envoi de ${path.basename(videoPath)}`,
    });
    expect(await bar.getAttribute('aria-valuetext')).toMatch(/^Envoi en cours… /);
    expect(await leavingAsks(page)).toBe(true);

    const nav = page.getByRole('navigation', { name: 'Navigation principale' });
    const question = page.getByRole('dialog', { name: "Abandonner l'envoi ?" });
    await nav.getByRole('link', { name: 'Programmateur de vidéos' }).click();
    await question
      .getByText(
        "1 vidéo est encore en cours d'envoi. Si vous quittez cette page maintenant, son envoi s'arrête : il faudra la choisir à nouveau.",
      )
      .waitFor();
    expect(new URL(page.url()).pathname).toBe('/memes');
    const questionTitle = await question.getAttribute('aria-labelledby');
    expect(await axeViolations(page, `[aria-labelledby="${questionTitle}"]`)).toEqual([]);

    // 'Continuer l'envoi': the page and its upload stay.
    await question.getByRole('button', { name: "Continuer l'envoi" }).click();
    await question.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/memes');
    await page.getByText(/^Envoi en cours… \d+ %$/).waitFor();
    expect(await leavingAsks(page)).toBe(true);

    // 'Abandonner': the unfinished upload is deleted, and the link is followed.
    await nav.getByRole('link', { name: 'Programmateur de vidéos' }).click();
    const terminated = page.waitForRequest(
      (request) => request.method() === 'DELETE' && request.url().includes('/api/uploads/'),
    );
    await question.getByRole('button', { name: 'Abandonner', exact: true }).click();
    await terminated;
    await page.getByRole('heading', { name: 'Programmateur de vidéos' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/scheduler');
    expect(await question.count()).toBe(0);
  });

  it('shows the Pro notice to other users, and the API refuses them', async () => {
    const page = await openPage();
    await signUpThroughApi(page);
    await page.goto('/memes');
    await page.getByText('Cette fonctionnalité est réservée aux utilisateurs Pro').waitFor();
    expect(await page.getByLabel('Lien de la vidéo YouTube').count()).toBe(0);
    // The way to go Pro: an e-mail to the operator (the notice said 'contact us', no address).
    const contact = page.getByRole('link', { name: 'Nous écrire pour passer à Pro' });
    expect(await contact.getAttribute('href')).toBe(
      'mailto:privacy@cadence.example?subject=Passer%20%C3%A0%20Cadence%20Pro',
    );
    const status = await page.evaluate(async () => {
      const response = await fetch('/api/memes', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ source: { type: 'youtube', url: 'https://youtu.be/abc' } }),
      });
      return { status: response.status, body: await response.json() };
    });
    expect(status).toEqual({
      status: 403,
      body: expect.objectContaining({ code: 'pro_required' }),
    });
  });

  it('checks the link, then explains that YouTube downloads are unavailable and offers the upload', async () => {
    const page = await openPage();
    await signUpPro(page);
    await page.getByRole('heading', { name: 'Comment ça marche ?' }).waitFor();
    const field = page.getByLabel('Lien de la vidéo YouTube');
    const button = detectButton(page);
    expect(await button.textContent()).toContain('Détecter les memes');
    expect(await button.isDisabled()).toBe(true);

    await field.fill('https://vimeo.com/76979871');
    expect(await button.isEnabled()).toBe(true);
    await button.click();
    const message = page.getByText('Veuillez entrer une URL YouTube valide');
    await message.waitFor();
    // Red, under the field.
    const colour = await message.evaluate(
      (element) => element.ownerDocument.defaultView?.getComputedStyle(element).color,
    );
    expect(colour).toMatch(/^(rgb\(2[0-9]{2}, [0-9]{1,2}, [0-9]{1,2}\)|oklch\(0\.5)/);

    await field.fill('');
    expect(await button.isDisabled()).toBe(true);
    await field.fill('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    expect(await message.count()).toBe(0);
    await button.click();
    await page
      .getByText(
        "Le téléchargement depuis YouTube n'est pas disponible sur ce serveur (yt-dlp n'est pas installé). Importez plutôt le fichier vidéo.",
      )
      .waitFor();
    expect(await button.isEnabled()).toBe(true);
    // The recent list says the same thing as the result, at once (it used to read
    // 'Téléchargement' until its own next poll).
    const entry = page
      .getByRole('region', { name: 'Analyses récentes' })
      .getByRole('button', { name: /youtube\.com\/watch\?v=dQw4w9WgXcQ/ });
    await entry.waitFor();
    expect(await entry.innerText()).toContain('Échec');
    await page.getByRole('button', { name: 'Importer le fichier' }).click();
    await page.getByRole('button', { name: 'Choisir une vidéo' }).waitFor();
  });

  it('analyses an uploaded video into listed extracts and a downloadable one-minute compilation', async () => {
    const page = await openPage();
    await signUpPro(page);
    await page.getByText('Fichier vidéo').click();
    await page.getByLabel('Vidéo à analyser').setInputFiles(videoPath);
    await page.getByText('Prête à être analysée').waitFor({ timeout: 30_000 });
    // The hint says what happens: nothing starts until the button is clicked.
    await page
      .getByText(
        "Vous avez déjà le fichier ? Importez-le, puis cliquez sur « Détecter les memes » pour lancer l'analyse.",
        { exact: true },
      )
      .waitFor();
    expect(await page.getByRole('region', { name: "Progression de l'analyse" }).count()).toBe(0);
    const started = Date.now();
    await detectButton(page).click();
    const runningButton = page.getByRole('button', { name: 'Analyse en cours...' });
    await runningButton.waitFor();
    expect(await runningButton.isDisabled()).toBe(true);
    await page.getByRole('region', { name: "Progression de l'analyse" }).waitFor();

    await page.getByRole('heading', { name: 'Votre compilation' }).waitFor({ timeout: 150_000 });
    const elapsed = Date.now() - started;
    console.info(`[memes e2e] click to downloadable compilation: ${elapsed} ms`);
    expect(await detectButton(page).textContent()).toContain('Détecter les memes');

    const extracts = page.getByRole('checkbox', { name: /^Extrait \d+, de \d+:\d\d à \d+:\d\d$/ });
    const total = await extracts.count();
    expect(total).toBeGreaterThanOrEqual(2);
    await page
      .getByText(new RegExp(`^${total} extraits sélectionnés sur ${total} · \\d+:\\d\\d$`))
      .waitFor();
    // One left ticked: the singular (regression: "1 extraits sur N").
    for (let index = 1; index < total; index++) await extracts.nth(index).uncheck();
    await page
      .getByText(new RegExp(`^1 extrait sélectionné sur ${total} · \\d+:\\d\\d$`))
      .waitFor();
    for (let index = 1; index < total; index++) await extracts.nth(index).check();
    // Every extract shows either its score (a detected highlight) or says it is filler: a calm
    // stretch is never presented as a detected moment with 'Score 0 %'.
    const scored = await page.getByText(/^Score \d+ %$/).count();
    const filler = await page.getByText('Passage calme, pour compléter la minute').count();
    expect(scored + filler).toBe(total);
    expect(await page.getByText(/^Score 0 %$/).count()).toBe(0);
    if (filler > 0) {
      await page
        .getByText(
          scored === 0
            ? /^Aucun moment ne se détache dans cette vidéo/
            : new RegExp(`^${scored} moments? forts? détectés? ;`),
        )
        .waitFor();
    }
    // The first thumbnail really loaded (owner-only URL, with the session cookie).
    const thumbnail = page.locator('img[src*="/extracts/0/thumbnail"]');
    await thumbnail.waitFor();
    await expect
      .poll(() =>
        thumbnail.evaluate((img) => ('naturalWidth' in img ? Number(img.naturalWidth) : 0)),
      )
      .toBeGreaterThan(0);

    const download = page.getByRole('link', { name: 'Télécharger' });
    const href = await download.getAttribute('href');
    expect(href).toMatch(/^\/api\/media\/compilation-[0-9a-f]+\/file\?download=1$/);
    const file = await page.request.get(href ?? '');
    expect(file.status()).toBe(200);
    expect(file.headers()['content-type']).toBe('video/mp4');
    expect((await file.body()).length).toBeGreaterThan(100_000);

    const mediaId = /compilation-[0-9a-f]+/.exec(href ?? '')?.[0] ?? '';
    expect(
      await page.getByRole('link', { name: 'Programmer sur TikTok' }).getAttribute('href'),
    ).toBe(`/scheduler?media=${mediaId}`);
  }, 200_000);
});
