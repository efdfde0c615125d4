// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { createMemoryRouter, Link, Outlet, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { resources } from './i18n.ts';
import type { UploadItem, VideoUploads } from './upload.ts';
import { useUploadGuard } from './upload-guard.tsx';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({ resources, lng: 'fr', fallbackLng: false });
});
afterEach(cleanup);

function item(status: UploadItem['status']): UploadItem {
  return {
    key: 'upload-1',
    file: new File(['x'], 'clip.mp4', { type: 'video/mp4' }),
    previewUrl: 'blob:clip',
    progress: 0.4,
    transfer: { sentBytes: 1, totalBytes: 2, msLeft: null },
    status,
    mediaId: null,
    rejection: null,
    maxBytes: null,
    failed: false,
  };
}

/** A page's uploads as useVideoUploads gives them: one video, sending or sent. */
function fakeUploads(status: UploadItem['status']): VideoUploads {
  const items = [item(status)];
  return {
    items,
    add: vi.fn(() => []),
    remove: vi.fn(),
    abandon: vi.fn(),
    clear: vi.fn(),
    uploading: status === 'uploading',
    doneIds: [],
  };
}

/**
 * A place with uploads at /page, whose child routes (/page/history) keep it mounted, as the
 * scheduler's queue and history tabs keep the composer; /other is another screen.
 */
function renderPlace(uploads: VideoUploads, then = vi.fn()) {
  function Place() {
    const guard = useUploadGuard([uploads]);
    return (
      <>
        <Link to="/other">Ailleurs</Link>
        <Link to="/page/history">Historique</Link>
        <Link to="/page?account=a">Filtre</Link>
        <button type="button" onClick={() => guard.ask('close', then)}>
          Fermer le formulaire
        </button>
        <Outlet />
        {guard.dialog}
      </>
    );
  }
  const router = createMemoryRouter(
    [
      {
        path: '/page',
        element: <Place />,
        children: [
          { index: true, element: <p>File</p> },
          { path: 'history', element: <p>Passées</p> },
        ],
      },
      { path: '/other', element: <p>Autre écran</p> },
    ],
    { initialEntries: ['/page'] },
  );
  render(
    <I18nextProvider i18n={i18n}>
      <RouterProvider router={router} />
    </I18nextProvider>,
  );
  return router;
}

const question = () => screen.queryByRole('dialog', { name: "Abandonner l'envoi ?" });

describe('useUploadGuard', () => {
  // The bug: an in-app link unmounted the page and silently aborted its uploads.
  it('asks before an in-app link leaves a page whose upload is sending', async () => {
    const user = userEvent.setup();
    const uploads = fakeUploads('uploading');
    const router = renderPlace(uploads);

    await user.click(screen.getByRole('link', { name: 'Ailleurs' }));
    expect(question()).not.toBeNull();
    expect(screen.getByText(/Si vous quittez cette page maintenant/)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/page');

    await user.click(screen.getByRole('button', { name: "Continuer l'envoi" }));
    expect(question()).toBeNull();
    expect(router.state.location.pathname).toBe('/page');
    expect(uploads.abandon).not.toHaveBeenCalled();

    await user.click(screen.getByRole('link', { name: 'Ailleurs' }));
    await user.click(screen.getByRole('button', { name: 'Abandonner' }));
    expect(uploads.abandon).toHaveBeenCalledOnce();
    expect(router.state.location.pathname).toBe('/other');
    expect(await screen.findByText('Autre écran')).toBeTruthy();
  });

  it('lets navigations that keep the page mounted through without asking', async () => {
    const user = userEvent.setup();
    const uploads = fakeUploads('uploading');
    const router = renderPlace(uploads);

    await user.click(screen.getByRole('link', { name: 'Historique' }));
    expect(router.state.location.pathname).toBe('/page/history');
    await user.click(screen.getByRole('link', { name: 'Filtre' }));
    expect(router.state.location.search).toBe('?account=a');
    expect(question()).toBeNull();
    expect(uploads.abandon).not.toHaveBeenCalled();
  });

  it('does not ask once nothing is sending', async () => {
    const user = userEvent.setup();
    const router = renderPlace(fakeUploads('done'));
    await user.click(screen.getByRole('link', { name: 'Ailleurs' }));
    expect(router.state.location.pathname).toBe('/other');
    expect(question()).toBeNull();
  });

  it('asks what the place asks (closing the composer), then goes on only after Abandonner', async () => {
    const user = userEvent.setup();
    const uploads = fakeUploads('uploading');
    const then = vi.fn();
    renderPlace(uploads, then);

    await user.click(screen.getByRole('button', { name: 'Fermer le formulaire' }));
    expect(screen.getByText(/Si vous fermez maintenant/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: "Continuer l'envoi" }));
    expect(then).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Fermer le formulaire' }));
    await user.click(screen.getByRole('button', { name: 'Abandonner' }));
    expect(uploads.abandon).toHaveBeenCalledOnce();
    expect(then).toHaveBeenCalledOnce();
  });
});

// Every place that sends videos is guarded by the same hook, and shows progress with the same
// component: a new one that forgot either (the meme detector did, both) fails here.
const sources = import.meta.glob<string>(['../**/*.tsx', '../**/*.ts', '!../**/*.test.*'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

describe('places that upload', () => {
  it('each guard their uploads with useUploadGuard', () => {
    const places = Object.entries(sources)
      .filter(([path, text]) => path !== './upload.ts' && text.includes('useVideoUploads('))
      .map(([path, text]) => ({ path, guarded: text.includes('useUploadGuard(') }));
    expect(places).toEqual([
      { path: '../features/memes/components/meme-form.tsx', guarded: true },
      { path: '../features/scheduler/composer/use-schedule-form.ts', guarded: true },
      { path: '../features/stories/components/story-creator.tsx', guarded: true },
    ]);
  });

  // And every one shows their progress with UploadProgress (lib/upload-progress.tsx): a
  // progressbar named after the file, with the size and time left in its aria-valuetext. The meme
  // detector drew a bare bar, with no role="progressbar".
  it('each show their uploads’ progress with UploadProgress, in their own feature', () => {
    const places = Object.entries(sources)
      .filter(([path, text]) => path !== './upload.ts' && text.includes('useVideoUploads('))
      .map(([path]) => {
        // '../features/memes/components/meme-form.tsx' → '../features/memes/'
        const feature = path.split('/').slice(0, 3).join('/') + '/';
        const shows = Object.entries(sources).some(
          ([other, text]) => other.startsWith(feature) && text.includes('<UploadProgress'),
        );
        return { path, shows };
      });
    expect(places).toEqual([
      { path: '../features/memes/components/meme-form.tsx', shows: true },
      { path: '../features/scheduler/composer/use-schedule-form.ts', shows: true },
      { path: '../features/stories/components/story-creator.tsx', shows: true },
    ]);
  });

  it('name an upload’s bar only through UploadProgress', () => {
    const naming = Object.entries(sources)
      .filter(([, text]) => text.includes("'media.progressLabel'"))
      .map(([path]) => path);
    expect(naming).toEqual(['./upload-progress.tsx']);
  });
});
