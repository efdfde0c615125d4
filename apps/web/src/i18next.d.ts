// t() accepts only keys the French locale has (the source of truth): a missing or misspelt key
// fails type-checking instead of showing the raw key to a user.
import 'i18next';
import type { French } from '@cadence/shared/translation-key';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: French };
  }
}
