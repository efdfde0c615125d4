import { dateFormatter } from '@cadence/shared/date-format';
import type { Language } from '@cadence/shared/errors';
import { failReasonKey } from '@cadence/shared/fail-reason-keys';
import { intlLocale } from '@cadence/shared/locale';
import {
  notificationSentenceKey,
  type NotificationData,
  type NotificationType,
  type UnsubscribeScope,
} from '@cadence/shared/schemas/notification';
import { localeText } from '../../mail/locale-text.ts';
import { notificationMail, type NotificationMailLine } from '../../mail/templates.ts';
import { toView } from './notification-view.ts';
import type { NotificationRow } from './repository.ts';
import type { NotificationServiceDeps } from './service.ts';

/** The sentence of a notification in `language` (the bell's, in the locale files). */
function sentence(
  language: Language,
  type: NotificationType,
  data: NotificationData,
  timeZone: string | null,
): string {
  const dueAt = data.dueAt ? new Date(data.dueAt) : null;
  return localeText(language, notificationSentenceKey(type, data), {
    handle: data.account ?? '',
    caption: data.caption ?? '',
    reason: localeText(language, failReasonKey(data.failReason ?? null)),
    date: dueAt
      ? dateFormatter(intlLocale(language), {
          dateStyle: 'long',
          timeStyle: 'short',
          timeZone: timeZone ?? 'UTC',
        }).format(dueAt)
      : '',
  });
}

/** What a notification's email offers to do about it (reschedule, reconnect), if anything. */
function actionOf(publicUrl: string, language: Language, row: NotificationRow) {
  const data = toView(row).data;
  if (row.type === 'post_failed' && data.postId)
    return {
      label: localeText(language, 'settings.notifications.bell.reschedule'),
      url: `${publicUrl}/scheduler/history?post=${encodeURIComponent(data.postId)}`,
    };
  if (row.type === 'account_reconnect_needed' || row.type === 'token_refresh_failed')
    return {
      label: localeText(language, 'settings.notifications.bell.reconnect'),
      url: `${publicUrl}/tiktok`,
    };
  return undefined;
}

/** Sends one email per call: one event right away, or the day's digest of them. */
export function createNotificationMailer(
  deps: Pick<NotificationServiceDeps, 'users' | 'mail' | 'tokens' | 'publicUrl'>,
) {
  const { users, mail, tokens, publicUrl } = deps;

  const unsubscribeUrls = (userId: string, scope: UnsubscribeScope) => {
    const token = encodeURIComponent(tokens.create(userId, scope));
    return {
      page: `${publicUrl}/unsubscribe?token=${token}`,
      oneClick: `${publicUrl}/api/notifications/unsubscribe?token=${token}`,
    };
  };

  /** Queues one email for rows already claimed (mailed_at set by this caller). */
  async function mailRows(userId: string, rows: NotificationRow[], digest: boolean) {
    const user = await users.findById(userId);
    const first = rows[0];
    if (!user || !first) return;
    const language = user.preferredLanguage;
    const typeName = (type: NotificationType) =>
      localeText(language, `settings.notifications.types.${type}`);
    const lines: NotificationMailLine[] = rows.map((row) => {
      const action = actionOf(publicUrl, language, row);
      return {
        text: sentence(language, row.type, toView(row).data, user.timeZone),
        ...(action && { action }),
      };
    });
    const types = [...new Set(rows.map((row) => row.type))];
    const footer = [
      ...types.map((type) =>
        localeText(language, 'settings.notifications.email.unsubscribe', {
          type: typeName(type),
          link: unsubscribeUrls(userId, type).page,
        }),
      ),
      localeText(language, 'settings.notifications.email.settings', {
        link: `${publicUrl}/settings`,
      }),
    ];
    const mainAction = (!digest && actionOf(publicUrl, language, first)) || {
      label: localeText(language, 'settings.notifications.email.open'),
      url: `${publicUrl}/tiktok`,
    };
    await mail.queue({
      kind: digest ? 'notification-digest' : 'notification',
      userId,
      to: user.email,
      language,
      content: notificationMail(language, {
        subject: digest
          ? localeText(language, 'settings.notifications.email.digestSubject')
          : localeText(language, 'settings.notifications.email.subject', {
              type: typeName(first.type),
            }),
        greeting: localeText(language, 'settings.notifications.email.greeting', {
          name: user.name,
        }),
        ...(digest && {
          intro: localeText(language, 'settings.notifications.email.digestIntro'),
        }),
        lines: digest ? lines : lines.map(({ text }) => ({ text })),
        action: mainAction,
        footer,
        signature: localeText(language, 'settings.notifications.email.signature'),
        oneClickUnsubscribeUrl: unsubscribeUrls(userId, digest ? 'all' : first.type).oneClick,
      }),
    });
  }

  return mailRows;
}
