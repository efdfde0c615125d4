import { memeFailReasons } from '@cadence/shared/schemas/meme';
import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { resources } from '../../lib/i18n.ts';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.init({ resources, lng: 'fr', fallbackLng: false });
});

const selectedCount = (lng: 'fr' | 'en', count: number, total: number) =>
  i18n.t('memes.extracts.selectedCount', { lng, count, total, duration: '0:42' });

describe('the count of ticked extracts', () => {
  // Regression: it read "1 extraits sur 1".
  it('agrees with the number in French', () => {
    expect(selectedCount('fr', 1, 1)).toBe('1 extrait sélectionné sur 1 · 0:42');
    expect(selectedCount('fr', 2, 5)).toBe('2 extraits sélectionnés sur 5 · 0:42');
  });

  it('agrees with the number in English', () => {
    expect(selectedCount('en', 1, 4)).toBe('1 extract out of 4 selected · 0:42');
    expect(selectedCount('en', 3, 4)).toBe('3 extracts out of 4 selected · 0:42');
  });
});

describe('analysis failures', () => {
  it.each(memeFailReasons)('%s is explained in French and English', (reason) => {
    for (const lng of ['fr', 'en'] as const) {
      expect(i18n.exists(reason, { lng }), `${lng}: ${reason}`).toBe(true);
    }
  });

  it('tells a network failure apart: YouTube out of reach from the server, try later or upload', () => {
    expect(i18n.t('memes.failures.network', { lng: 'fr' })).toBe(
      "Le serveur n'a pas pu joindre YouTube (problème de réseau). Réessayez plus tard, ou importez le fichier vidéo.",
    );
    expect(i18n.t('memes.failures.network', { lng: 'en' })).toBe(
      'The server could not reach YouTube (a network problem). Try again later, or upload the video file.',
    );
  });
});
