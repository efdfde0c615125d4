import { publishFailReasons } from '@cadence/shared/publish-fail-reasons';
import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { resources } from '../../../lib/i18n.ts';
import { failReasonKey } from '@cadence/shared/fail-reason-keys';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.init({ resources, lng: 'fr', fallbackLng: false });
});

describe('post failure reasons', () => {
  // Regression: video_too_long, status_timeout, upload_* and publish_failed, all written by the
  // publisher, used to show as "failed for an unknown reason".
  it.each(publishFailReasons)('%s has its own sentence in French and English', (reason) => {
    const key = failReasonKey(reason);
    expect(key).not.toBe('scheduler.failReasons.unknown');
    for (const lng of ['fr', 'en'] as const) {
      expect(i18n.exists(key, { lng }), `${lng}: ${key}`).toBe(true);
    }
  });

  it('falls back to words, never a code, for reasons outside the list', () => {
    expect(failReasonKey(null)).toBe('scheduler.failReasons.unknown');
    expect(failReasonKey('something_from_2019')).toBe('scheduler.failReasons.unknown');
    expect(failReasonKey('toString')).toBe('scheduler.failReasons.unknown');
    expect(failReasonKey('spam_risk_new_kind')).toBe('scheduler.failReasons.spam_risk');
  });
});
