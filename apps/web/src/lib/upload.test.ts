import i18next from 'i18next';
import * as tus from 'tus-js-client';
import type { Language } from '@cadence/shared/errors';
import type { TranslationKey } from '@cadence/shared/translation-key';
import { describe, expect, it } from 'vitest';
import { resources } from './i18n.ts';
import { rejectionFrom } from './upload.ts';
import { formatFileSize } from './error-text.ts';

function refused(status: number, body: string): tus.DetailedError {
  const response: tus.HttpResponse = {
    getStatus: () => status,
    getHeader: () => undefined,
    getBody: () => body,
    getUnderlyingObject: () => null,
  };
  const error = new tus.DetailedError('tus: unexpected response');
  error.originalResponse = response;
  return error;
}

async function translator(language: 'fr' | 'en') {
  const i18n = i18next.createInstance();
  await i18n.init({ resources, lng: language, interpolation: { escapeValue: false } });
  return i18n;
}

describe('upload refusals', () => {
  // The server's 413 for a full quota says the quota; the person reads it and what to do.
  it('shows the quota and what to do when an upload does not fit, in both languages', async () => {
    const rejection = rejectionFrom(
      refused(
        413,
        JSON.stringify({
          code: 'media_rejected',
          reasons: ['quota_exceeded'],
          quotaBytes: 10_000_000,
          usedBytes: 8_550_000,
        }),
      ),
    );
    expect(rejection).toEqual({ reasons: ['quota_exceeded'], maxBytes: 10_000_000 });
    const fr = await translator('fr');
    const en = await translator('en');
    const max = (language: Language) => formatFileSize(rejection?.maxBytes ?? 0, language);
    const french = fr.t('media.rejected.quota_exceeded', { max: max('fr') });
    const english = en.t('media.rejected.quota_exceeded', { max: max('en') });
    expect(french).toMatch(/limités à 9,5\sMo au total\. Supprimez des vidéos/u);
    expect(english).toMatch(/limited to 9\.5\sMB in total\. Delete videos/u);
  });

  // The page may not know MAX_UPLOAD_BYTES yet (its public configuration still loading): the
  // server's refusal names its own limit, which the sentence then shows.
  it("shows the server's largest file when it refuses a file as too large, in both languages", async () => {
    const rejection = rejectionFrom(
      refused(
        413,
        JSON.stringify({
          code: 'media_rejected',
          reasons: ['file_too_big'],
          maxBytes: 2 * 1024 * 1024,
        }),
      ),
    );
    expect(rejection).toEqual({ reasons: ['file_too_big'], maxBytes: 2 * 1024 * 1024 });
    const fr = await translator('fr');
    const en = await translator('en');
    const max = (language: Language) => formatFileSize(rejection?.maxBytes ?? 0, language);
    expect(fr.t('media.rejected.file_too_big', { max: max('fr') })).toMatch(
      /^Fichier trop lourd : 2\sMo au maximum\. Exportez la vidéo avec une qualité plus basse ou raccourcissez-la\.$/u,
    );
    expect(en.t('media.rejected.file_too_big', { max: max('en') })).toMatch(
      /^File too large: 2\sMB at most\. Export the video at a lower quality or shorten it\.$/u,
    );
  });

  it("reads the server's reasons from any 4xx, and tus's plain 413 as a file too large", () => {
    const badName = JSON.stringify({ code: 'media_rejected', reasons: ['invalid_file_name'] });
    expect(rejectionFrom(refused(400, badName))).toEqual({ reasons: ['invalid_file_name'] });
    expect(rejectionFrom(refused(413, 'Maximum size exceeded\n'))).toEqual({
      reasons: ['file_too_big'],
    });
    const deferred = JSON.stringify({
      code: 'validation_failed',
      message: 'Upload-Defer-Length is not supported',
      fields: { _: 'media.rejected.invalid_upload' },
    });
    expect(rejectionFrom(refused(400, deferred))).toEqual({ reasons: ['invalid_upload'] });
    expect(rejectionFrom(refused(500, 'Internal Server Error\n'))).toBeNull();
    expect(rejectionFrom(new Error('offline'))).toBeNull();
  });

  // tus answers these with a status and plain text; each used to read 'check your connection'.
  it('says what to do when the server refuses the upload request itself, in both languages', async () => {
    const fr = await translator('fr');
    const en = await translator('en');
    const expected: [number, string, RegExp, RegExp][] = [
      [401, 'Unauthorized\n', /^Votre session a pris fin/u, /^Your session ended/u],
      [404, 'Not found\n', /a expiré ou a été supprimé/u, /expired or was removed/u],
      [410, 'This upload expired\n', /a expiré ou a été supprimé/u, /expired or was removed/u],
      [409, 'Upload-Offset conflict\n', /autre onglet/u, /another tab/u],
      [423, 'Another request is still working\n', /autre onglet/u, /another tab/u],
      [403, 'Forbidden\n', /Rechargez la page/u, /Reload the page/u],
    ];
    for (const [status, body, french, english] of expected) {
      const reasons = rejectionFrom(refused(status, body))?.reasons ?? [];
      expect(reasons, `status ${status}`).toHaveLength(1);
      const key = `media.rejected.${reasons[0] ?? 'none'}` as TranslationKey;
      expect(fr.t(key), `status ${status}`).toMatch(french);
      expect(en.t(key), `status ${status}`).toMatch(english);
    }
    // The server's own trouble and a lost connection stay network problems, which are retried.
    expect(rejectionFrom(refused(503, 'Service Unavailable\n'))).toBeNull();
  });
});
