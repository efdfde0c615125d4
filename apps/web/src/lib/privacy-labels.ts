import type { PrivacyLevel } from '@cadence/shared/schemas/account';
import type { TranslationKey } from '@cadence/shared/translation-key';

/** How each TikTok privacy level reads, wherever one is chosen or shown. */
export const privacyLabelKeys = {
  PUBLIC_TO_EVERYONE: 'privacyLevels.PUBLIC_TO_EVERYONE',
  MUTUAL_FOLLOW_FRIENDS: 'privacyLevels.MUTUAL_FOLLOW_FRIENDS',
  FOLLOWER_OF_CREATOR: 'privacyLevels.FOLLOWER_OF_CREATOR',
  SELF_ONLY: 'privacyLevels.SELF_ONLY',
} as const satisfies Record<PrivacyLevel, TranslationKey>;
