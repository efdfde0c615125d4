import type { PrivacyLevel } from '@cadence/shared/schemas/account';
import { privacyLevels } from '@cadence/shared/schemas/account';
import type { EditPost } from '@cadence/shared/schemas/planning';
import type { Post } from '@cadence/shared/schemas/schedule';
import { dateTimeInstant, type DateTime } from './date-time.ts';

/** What the edit dialog holds. */
export interface PostEditValues {
  title: string;
  privacyLevel: PrivacyLevel | '';
  allowComment: boolean;
  allowDuet: boolean;
  allowStitch: boolean;
  when: DateTime;
}

export function asPrivacyLevel(value: string | null): PrivacyLevel | '' {
  return privacyLevels.find((level) => level === value) ?? '';
}

/**
 * The PATCH body for what the person changed, and only that (an unchanged privacy is not
 * checked against TikTok again); null when nothing changed. `dueAt` is undefined in the answer
 * when the date or time cannot be read: the caller says so instead of sending.
 */
export function postEdit(
  post: Post,
  values: PostEditValues,
  timeZone: string,
): { edit: EditPost | null; invalidTime: boolean } {
  const dueAt = dateTimeInstant(values.when, timeZone);
  if (dueAt === null) return { edit: null, invalidTime: true };
  const edit: EditPost = {
    ...(values.title !== post.title && { title: values.title }),
    ...(values.privacyLevel !== '' &&
      values.privacyLevel !== post.privacyLevel && { privacyLevel: values.privacyLevel }),
    ...(values.allowComment !== post.allowComment && { allowComment: values.allowComment }),
    ...(values.allowDuet !== post.allowDuet && { allowDuet: values.allowDuet }),
    ...(values.allowStitch !== post.allowStitch && { allowStitch: values.allowStitch }),
    // Minutes are what the fields hold: the same minute is no change.
    ...(Math.floor(Date.parse(dueAt) / 60_000) !== Math.floor(Date.parse(post.dueAt) / 60_000) && {
      dueAt,
    }),
  };
  return { edit: Object.keys(edit).length > 0 ? edit : null, invalidTime: false };
}
