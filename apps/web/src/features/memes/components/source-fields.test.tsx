// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resources } from '../../../lib/i18n.ts';
import type { UploadItem } from '../../../lib/upload.ts';
import { SourceFileField } from './source-fields.tsx';

afterEach(cleanup);

const MiB = 1024 ** 2;

function upload(patch: Partial<UploadItem> = {}): UploadItem {
  return {
    key: 'upload-1',
    file: new File(['x'], 'concert.mp4', { type: 'video/mp4' }),
    previewUrl: 'blob:concert',
    progress: 0.4,
    transfer: { sentBytes: 400 * MiB, totalBytes: 1000 * MiB, msLeft: 3 * 60_000 },
    status: 'uploading',
    mediaId: null,
    rejection: null,
    maxBytes: null,
    failed: false,
    ...patch,
  };
}

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({ resources, lng: 'fr', fallbackLng: false });
});

async function renderField(language: 'fr' | 'en', item: UploadItem) {
  await i18n.changeLanguage(language);
  render(
    <I18nextProvider i18n={i18n}>
      <SourceFileField upload={item} onChoose={() => {}} onRemove={() => {}} disabled={false} />
    </I18nextProvider>,
  );
}

// Intl puts a (narrow) no-break space before units: compared as plain spaces.
const plain = (text: string | null) => (text ?? '').replace(/[\u00a0\u202f]/g, ' ');

describe('the meme detector’s uploaded source', () => {
  // Regression: its bar was a bare <div>: no role="progressbar", no size or time left for a
  // screen reader, unlike the scheduler's and the story creator's uploads.
  it.each([
    [
      'fr',
      "Progression de l'envoi de concert.mp4",
      'Envoi en cours… 40 % · 400 Mo sur 1 000 Mo · environ 3 min restantes',
    ],
    [
      'en',
      'Upload progress of concert.mp4',
      'Uploading… 40% · 400 MB of 1,000 MB · about 3 min left',
    ],
  ] as const)(
    '(%s) shows its progress as a named progressbar with size and time left',
    async (language, name, valueText) => {
      await renderField(language, upload());
      const bar = screen.getByRole('progressbar', { name });
      expect(bar.getAttribute('aria-valuenow')).toBe('40');
      expect(plain(bar.getAttribute('aria-valuetext'))).toBe(valueText);
      expect(plain(screen.getByTestId('upload-transfer').textContent)).toBe(
        valueText.split(' · ').slice(1).join(' · '),
      );
    },
  );

  it('has no bar once the file is sent, and says it is ready', async () => {
    await renderField('fr', upload({ status: 'done', progress: 1, mediaId: 'media-1' }));
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByText('Prête à être analysée')).toBeTruthy();
  });
});
