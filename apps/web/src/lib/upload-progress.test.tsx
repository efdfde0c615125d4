// @vitest-environment jsdom
import { renderHook } from '@testing-library/react';
import i18next from 'i18next';
import type { ReactNode } from 'react';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { resources } from './i18n.ts';
import { useTransferWords } from './upload-progress.tsx';

const MiB = 1024 ** 2;
const GiB = 1024 ** 3;

async function transferText(language: 'fr' | 'en') {
  const i18n = i18next.createInstance();
  // As the app starts it (lib/i18n.ts): React escapes, i18next does not.
  await i18n.use(initReactI18next).init({
    resources,
    lng: language,
    fallbackLng: false,
    interpolation: { escapeValue: false },
  });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <I18nextProvider i18n={i18n}>{children}</I18nextProvider>
  );
  const words = renderHook(() => useTransferWords(), { wrapper }).result.current;
  return (transfer: Parameters<typeof words>[0]) => words(transfer).text;
}

// Intl puts a (narrow) no-break space before units: compared as plain spaces.
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('an upload’s progress in words', () => {
  let fr: Awaited<ReturnType<typeof transferText>>;
  let en: Awaited<ReturnType<typeof transferText>>;
  beforeAll(async () => {
    fr = await transferText('fr');
    en = await transferText('en');
  });
  const transfer = (msLeft: number | null) => ({
    sentBytes: 412.3 * MiB,
    totalBytes: 1.2 * GiB,
    msLeft,
  });

  it('says what is sent of what and about how long is left, in French and English', () => {
    expect(plain(fr(transfer(3 * 60_000)))).toBe('412 Mo sur 1,2 Go · environ 3 min restantes');
    expect(plain(en(transfer(3 * 60_000)))).toBe('412 MB of 1.2 GB · about 3 min left');
  });

  it('gives the amount alone until the time left can be estimated', () => {
    expect(plain(fr(transfer(null)))).toBe('412 Mo sur 1,2 Go');
    expect(plain(en(transfer(null)))).toBe('412 MB of 1.2 GB');
  });

  it('says less than a minute, one minute and hours in each language', () => {
    expect(plain(fr(transfer(20_000)))).toMatch(/ · moins d'une minute restante$/);
    expect(plain(en(transfer(20_000)))).toMatch(/ · less than a minute left$/);
    expect(plain(fr(transfer(60_000)))).toMatch(/ · environ 1 min restante$/);
    expect(plain(en(transfer(60_000)))).toMatch(/ · about 1 min left$/);
    expect(plain(fr(transfer(90 * 60_000)))).toMatch(/ · environ 1,5 h restante$/);
    expect(plain(en(transfer(90 * 60_000)))).toMatch(/ · about 1.5 hr left$/);
    expect(plain(fr(transfer(3 * 3_600_000)))).toMatch(/ · environ 3 h restantes$/);
  });

  it('counts small files in ko / kB', () => {
    expect(plain(fr({ sentBytes: 12 * 1024, totalBytes: 900 * 1024, msLeft: null }))).toBe(
      '12 ko sur 900 ko',
    );
  });
});
