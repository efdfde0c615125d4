import { describe, expect, it } from 'vitest';
import accounts from '../../../apps/web/src/locales/en/accounts.json';
import auth from '../../../apps/web/src/locales/en/auth.json';
import common from '../../../apps/web/src/locales/en/common.json';
import media from '../../../apps/web/src/locales/en/media.json';
import memes from '../../../apps/web/src/locales/en/memes.json';
import scheduler from '../../../apps/web/src/locales/en/scheduler.json';
import schedules from '../../../apps/web/src/locales/en/schedules.json';
import stories from '../../../apps/web/src/locales/en/stories.json';
import { errorCodes, errorKey } from './errors.ts';
import { mediaRejectionReasons } from './schemas/media.ts';
import { memeFailReasons } from './schemas/meme.ts';
import { scheduleErrorKeys } from './schemas/schedule.ts';
import { storyFailReasons } from './schemas/story.ts';
import { isTranslationKey, type TranslationKey } from './translation-key.ts';

// The closed sets of keys the server sends (error codes, failure reasons, rejection reasons,
// schedule field messages). That French has each is checked by the type checker: these
// assignments fail to compile the day a set names a key fr/*.json lacks. That English has the
// same text is checked here, at run time, on the same sets.
const sentByServer: readonly TranslationKey[] = [
  ...errorCodes.map(errorKey),
  ...memeFailReasons,
  ...storyFailReasons,
  ...scheduleErrorKeys,
  ...mediaRejectionReasons.map((reason): TranslationKey => `media.rejected.${reason}`),
];

/** English text by key, plural keys (`key_one`, `key_other`) under their base. */
function englishTexts(): Map<string, string> {
  const texts = new Map<string, string>();
  const walk = (node: unknown, prefix: string): void => {
    if (typeof node === 'string') {
      if (node.trim() !== '') texts.set(prefix.replace(/_(?:one|other)$/, ''), node);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    for (const [name, child] of Object.entries(node))
      walk(child, prefix ? `${prefix}.${name}` : name);
  };
  for (const file of [accounts, auth, common, media, memes, scheduler, schedules, stories]) {
    walk(file, '');
  }
  return texts;
}

describe('translations of the keys the server sends', () => {
  it('has a French and an English text for every key of its closed sets', () => {
    expect(sentByServer.length).toBeGreaterThan(30);
    expect(sentByServer.filter((key) => !isTranslationKey(key))).toEqual([]);
    const english = englishTexts();
    expect(sentByServer.filter((key) => !english.has(key))).toEqual([]);
  });
});
