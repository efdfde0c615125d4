import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { holdPublicConfig, holdUploadBytes, leavingAsks, signUp } from './support/actions.ts';
import { runAdmin } from './support/server.ts';
import { useBrowserSuite } from './support/suite.ts';
import { postableClip, useTempVideos } from './support/videos.ts';

const portrait = { ...postableClip, durationSeconds: 2 };
const videos = useTempVideos('cadence-stories-e2e-', {
  'top1.mp4': portrait,
  'top2.mp4': { ...portrait, audio: false },
  // Small and 15 fps: TikTok would refuse it as a post, a story takes it as a source.
  'bottom.mp4': {
    width: 320,
    height: 240,
    fps: 15,
    durationSeconds: 2,
    audio: true,
    source: { color: 'teal' },
  },
});
/** Not a video at all, and over the 2 MiB upload limit this file's server has. */
const tooBig = () => path.join(videos.dir(), 'too-big.mp4');
beforeAll(async () => {
  await writeFile(tooBig(), Buffer.alloc(3 * 1024 * 1024, 7));
});

// Uploads above 2 MiB are refused (the test clips weigh a few dozen kB).
const suite = useBrowserSuite({ MAX_UPLOAD_BYTES: String(2 * 1024 * 1024) });
const { openPage } = suite;

/** A page signed in as a new user made Pro (by the admin CLI, as an operator would). */
async function proPage(): Promise<Page> {
  const page = await openPage();
  const user = await signUp(page);
  await runAdmin(suite.server(), 'pro', 'grant', user.email);
  return page;
}

/** A same-origin API call from the page, with its session cookie. */
function fetchFromPage(page: Page, url: string, init: { method?: string; body?: unknown } = {}) {
  return page.evaluate(
    async ({ url, method, body }) => {
      const response = await fetch(url, {
        method: method ?? 'GET',
        ...(body !== undefined && {
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
      });
      const buffer = await response.arrayBuffer();
      const contentType = response.headers.get('content-type');
      return {
        status: response.status,
        contentType,
        disposition: response.headers.get('content-disposition'),
        bytes: buffer.byteLength,
        json: contentType?.includes('json')
          ? (JSON.parse(new TextDecoder().decode(buffer)) as unknown)
          : null,
      };
    },
    { url, method: init.method, body: init.body },
  );
}

describe('story creator', () => {
  it('shows the Pro notice to a non-Pro user, and the API refuses them', async () => {
    const page = await openPage();
    await signUp(page);
    await page.goto('/stories');
    await page.getByRole('heading', { name: 'Fonctionnalité Pro' }).waitFor();
    await page.getByText('Cette fonctionnalité est réservée aux utilisateurs Pro').waitFor();
    expect(await page.getByRole('button', { name: 'Générer les Stories' }).count()).toBe(0);

    const list = await fetchFromPage(page, '/api/stories');
    expect(list.status).toBe(403);
    expect(list.json).toMatchObject({ code: 'pro_required' });
    const create = await fetchFromPage(page, '/api/stories', {
      method: 'POST',
      body: { topMediaIds: ['x'], bottomMediaIds: ['y'], mixBottomAudio: false },
    });
    expect(create.status).toBe(403);
  });

  it('refuses a file above the server limit at once, saying the limit', async () => {
    const page = await proPage();
    await page.goto('/stories');
    const topPanel = page.getByRole('region', { name: 'Vidéos du Haut' });
    await page.getByLabel('Importer des vidéos du haut').setInputFiles(tooBig());
    await topPanel
      .getByText(
        'Fichier trop lourd : 2 Mo au maximum. Exportez la vidéo avec une qualité plus basse ou raccourcissez-la.',
      )
      .waitFor();
  });

  // The page reads the limit from /api/public-config; a file chosen before that answer arrives
  // goes to the server, whose refusal names the limit (the page said TikTok's 4 Go instead).
  it("names the server's limit for a file chosen before the page has read it", async () => {
    const page = await proPage();
    const config = await holdPublicConfig(page);
    await page.goto('/stories');
    const topPanel = page.getByRole('region', { name: 'Vidéos du Haut' });
    await page.getByLabel('Importer des vidéos du haut').setInputFiles(tooBig());
    await topPanel
      .getByText(
        'Fichier trop lourd : 2 Mo au maximum. Exportez la vidéo avec une qualité plus basse ou raccourcissez-la.',
      )
      .waitFor();
    expect(config.held()).toBeGreaterThan(0);
    await config.release();
  });

  // One file chosen twice has one tus fingerprint: the second upload took the first's unfinished
  // upload to resume, both sent to it, and one ended "expired or removed" (seen once in four tries
  // by hand). Holding the first's bytes back makes the overlap happen every time.
  it('takes the same video in both panels, each its own upload', async () => {
    const page = await proPage();
    await page.goto('/stories');
    const topPanel = page.getByRole('region', { name: 'Vidéos du Haut' });
    const bottomPanel = page.getByRole('region', { name: 'Vidéos du Bas' });
    const held = await holdUploadBytes(page, { onlyFirst: true });
    await page.getByLabel('Importer des vidéos du haut').setInputFiles(videos.path('top1.mp4'));
    await expect.poll(() => held.length).toBe(1);
    await page.getByLabel('Importer des vidéos du bas').setInputFiles(videos.path('top1.mp4'));
    await bottomPanel.getByText('Prête').waitFor();
    await held[0]?.continue();
    await topPanel.getByText('Prête').waitFor();
    await expect
      .poll(() => page.getByRole('button', { name: 'Générer les Stories' }).isEnabled())
      .toBe(true);
    expect(await page.getByText(/Échec de l'envoi/).count()).toBe(0);
    const { json } = await fetchFromPage(page, '/api/media');
    const { media } = json as { media: { id: string; originalName: string }[] };
    expect(media.filter((item) => item.originalName === 'top1.mp4')).toHaveLength(2);
  });

  // Leaving the page stops the uploads: while one runs, the browser asks first. The upload's
  // bytes are held back so that it runs for as long as the test needs.
  it('says how much of a video is sent, and warns before leaving the page while it uploads', async () => {
    const page = await proPage();
    await page.goto('/stories');
    const topPanel = page.getByRole('region', { name: 'Vidéos du Haut' });
    const held = await holdUploadBytes(page, { onlyFirst: true });
    await page.getByLabel('Importer des vidéos du haut').setInputFiles(videos.path('top1.mp4'));
    await expect.poll(() => held.length).toBe(1);
    const bar = topPanel.getByRole('progressbar', { name: "Progression de l'envoi de top1.mp4" });
    await expect
      .poll(() => bar.getAttribute('aria-valuetext'))
      .toMatch(/^Envoi en cours… \d+ % · \d+(,\d)?\sko sur \d+(,\d)?\sko$/);
    expect(await leavingAsks(page)).toBe(true);
    await held[0]?.continue();
    await topPanel.getByText('Prête').waitFor();
    expect(await leavingAsks(page)).toBe(false);
  });

  it('imports into both panels, removes a video, generates a story, previews, downloads and schedules it', async () => {
    const page = await proPage();
    await page.goto('/stories');
    await page.getByRole('heading', { name: 'Créateur de Stories' }).waitFor();

    const generate = page.getByRole('button', { name: 'Générer les Stories' });
    const topPanel = page.getByRole('region', { name: 'Vidéos du Haut' });
    const bottomPanel = page.getByRole('region', { name: 'Vidéos du Bas' });
    expect(await generate.isDisabled()).toBe(true);

    await page
      .getByLabel('Importer des vidéos du haut')
      .setInputFiles([videos.path('top1.mp4'), videos.path('top2.mp4')]);
    await topPanel.getByText('Prête').nth(1).waitFor();
    // Top videos alone are not enough.
    expect(await generate.isDisabled()).toBe(true);

    await page.getByLabel('Importer des vidéos du bas').setInputFiles(videos.path('bottom.mp4'));
    await bottomPanel.getByText('Prête').waitFor();
    await expect.poll(() => generate.isEnabled()).toBe(true);
    await page.getByText('2 stories seront créées au format 1080 × 1920.').waitFor();

    // Removing a video takes it off the panel and deletes its stored upload.
    const mediaNamed = async (name: string) => {
      const { json } = await fetchFromPage(page, '/api/media');
      const { media } = json as { media: { id: string; originalName: string }[] };
      return media.filter((item) => item.originalName === name);
    };
    expect(await mediaNamed('top2.mp4')).toHaveLength(1);
    await topPanel.getByRole('listitem').nth(1).hover();
    await page.getByRole('button', { name: 'Retirer top2.mp4' }).click();
    await expect.poll(() => topPanel.getByRole('listitem').count()).toBe(1);
    await expect.poll(async () => (await mediaNamed('top2.mp4')).length).toBe(0);
    await page.getByText('1 story sera créée au format 1080 × 1920.').waitFor();

    await page.getByLabel('Mixer le son de la vidéo du bas').check();
    await generate.click();
    await page.getByText('1 story ajoutée à la file de rendu.').waitFor();
    const card = page.getByRole('article', { name: 'Story 1' });
    await card.waitFor();
    // Live progress while it is queued or rendering.
    await card.getByRole('progressbar', { name: 'Progression du rendu de la story 1' }).waitFor();

    const preview = card.getByLabel('Aperçu de la story 1');
    await preview.waitFor({ timeout: 90_000 });
    await card.getByText('Prête').waitFor();
    const playable = await preview.evaluate(
      (element) =>
        new Promise<{ readyState: number; duration: number; width: number; height: number }>(
          (resolve, reject) => {
            // The e2e project has no DOM typings: describe the part of HTMLVideoElement used here.
            const video = element as unknown as {
              readyState: number;
              duration: number;
              videoWidth: number;
              videoHeight: number;
              load(): void;
              addEventListener(
                type: string,
                listener: () => void,
                options: { once: boolean },
              ): void;
            };
            const report = () =>
              resolve({
                readyState: video.readyState,
                duration: video.duration,
                width: video.videoWidth,
                height: video.videoHeight,
              });
            if (video.readyState > 0) return report();
            video.addEventListener('loadedmetadata', report, { once: true });
            video.addEventListener('error', () => reject(new Error('video error')), { once: true });
            video.load();
          },
        ),
    );
    expect(playable.readyState).toBeGreaterThan(0);
    expect(playable.duration).toBeCloseTo(2, 0);
    expect([playable.width, playable.height]).toEqual([1080, 1920]);

    const href = await card.getByRole('link', { name: 'Télécharger' }).getAttribute('href');
    expect(href).toMatch(/^\/api\/media\/story-[0-9a-f]+\/file\?download=1$/);
    const download = await fetchFromPage(page, href!);
    expect(download.status).toBe(200);
    expect(download.contentType).toBe('video/mp4');
    expect(download.disposition).toBe('attachment; filename="story-top1.mp4"');
    expect(download.bytes).toBeGreaterThan(1000);

    const storyMediaId = href!.split('/')[3]!;
    await card.getByRole('link', { name: 'Programmer' }).click();
    // A client-side navigation: the URL is what changes (no load event to wait for).
    await page.waitForURL(`**/scheduler?media=${storyMediaId}`, { waitUntil: 'commit' });
    await page.getByRole('heading', { name: 'Programmateur de vidéos' }).waitFor();
  });
});
