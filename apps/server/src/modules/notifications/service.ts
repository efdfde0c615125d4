import { dateFormatter } from '@cadence/shared/date-format';
import type { Language } from '@cadence/shared/errors';
import { failReasonKey } from '@cadence/shared/fail-reason-keys';
import { intlLocale } from '@cadence/shared/locale';
import {
  defaultEmailTypes,
  notificationDataSchema,
  notificationSentenceKey,
  type Notification,
  type NotificationData,
  type NotificationList,
  type NotificationSettings,
  type NotificationType,
  type UnsubscribeScope,
} from '@cadence/shared/schemas/notification';
import type { Logger } from 'pino';
import { AppError } from '../../lib/app-error.ts';
import { localeText } from '../../mail/locale-text.ts';
import { notificationMail, type NotificationMailLine } from '../../mail/templates.ts';
import type { MailService } from '../mail/service.ts';
import type { UserRepository } from '../users/repository.ts';
import type { NotificationRepository, NotificationRow } from './repository.ts';
import type { UnsubscribeTokens } from './unsubscribe-token.ts';

/**
 * One event a person should hear about, as the module that decided it describes it. `dedupeKey`
 * names the event itself (e.g. the post and the lease that failed it): recording it twice adds
 * nothing and mails nothing.
 */
export interface NotificationEvent {
  userId: string;
  type: NotificationType;
  dedupeKey: string;
  data: NotificationData;
}

/** Records an event (and queues its email when wanted). Never throws: a notification must not undo the work it reports. */
export type Notify = (event: NotificationEvent) => Promise<void>;

/** How long notifications are kept (the privacy policy's figure). */
export const NOTIFICATION_RETENTION_DAYS = 90;
const LIST_LIMIT = 50;

/** The digest goes out at 07:00 in the person's zone (or, after a missed tick, before noon). */
export const DIGEST_HOUR = 7;
const DIGEST_LATEST_HOUR = 12;

/** The local date ('YYYY-MM-DD') and hour (0–23) of `at` in the IANA zone `timeZone`. */
export function localClock(at: Date, timeZone: string): { date: string; hour: number } {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      hourCycle: 'h23',
    }).formatToParts(at);
  } catch {
    // A zone this runtime no longer knows: the person's day is counted in UTC.
    return localClock(at, 'UTC');
  }
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((candidate) => candidate.type === type)?.value ?? '00';
  return { date: `${part('year')}-${part('month')}-${part('day')}`, hour: Number(part('hour')) };
}

export interface NotificationServiceDeps {
  repository: NotificationRepository;
  users: Pick<UserRepository, 'findById'>;
  mail: Pick<MailService, 'queue'>;
  tokens: UnsubscribeTokens;
  publicUrl: string;
  logger: Logger;
}

function toView(row: NotificationRow): Notification {
  const data = notificationDataSchema.safeParse(row.data);
  return {
    id: row.id,
    type: row.type,
    data: data.success ? data.data : {},
    createdAt: row.created_at.toISOString(),
    read: row.read_at !== null,
  };
}

/**
 * Notifications: the one fan-out of every event (publisher, token refresh, story and compilation
 * jobs call `notify`), the bell's list, email choices and one-click unsubscribes. An event's row
 * is inserted once (dedupe key); its email is queued by whoever claims the row's `mailed_at`,
 * right away or in the daily digest, so an event is never mailed twice.
 */
export function createNotificationService(deps: NotificationServiceDeps) {
  const { repository, users, mail, tokens, publicUrl, logger } = deps;

  async function settingsOf(userId: string): Promise<NotificationSettings> {
    const row = await repository.settingsOf(userId);
    return row
      ? { emailTypes: row.email_types, digest: row.digest }
      : { emailTypes: [...defaultEmailTypes], digest: false };
  }

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

  function actionOf(language: Language, row: NotificationRow) {
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
      const action = actionOf(language, row);
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
    const mainAction = (!digest && actionOf(language, first)) || {
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

  return {
    async notify(event: NotificationEvent): Promise<void> {
      try {
        const row = await repository.insert(event);
        if (!row) return;
        const settings = await settingsOf(event.userId);
        if (settings.digest || !settings.emailTypes.includes(event.type)) return;
        const claimed = await repository.claimForMail([row.id]);
        if (claimed.length > 0) await mailRows(event.userId, claimed, false);
      } catch (error) {
        logger.warn(
          { err: error, userId: event.userId, type: event.type, dedupeKey: event.dedupeKey },
          'notification not recorded',
        );
      }
    },

    async list(userId: string): Promise<NotificationList> {
      const [rows, unread] = await Promise.all([
        repository.latest(userId, LIST_LIMIT),
        repository.unreadCount(userId),
      ]);
      return { notifications: rows.map(toView), unread };
    },

    /** New since `since`, for the live stream. */
    async createdSince(userId: string, since: Date): Promise<Notification[]> {
      return (await repository.createdSince(userId, since)).map(toView);
    },

    markAllRead: (userId: string) => repository.markAllRead(userId),

    settings: settingsOf,

    async saveSettings(userId: string, settings: NotificationSettings) {
      await repository.saveSettings(userId, settings.emailTypes, settings.digest);
      return settingsOf(userId);
    },

    /**
     * Turns off the emails a signed link names ('all': every email). Works without a session; a
     * link that is not ours is a 400 whether or not the person exists.
     */
    async unsubscribe(token: string): Promise<{ type: UnsubscribeScope }> {
      const target = tokens.verify(token);
      if (!target) {
        throw new AppError('validation_failed', 'Bad unsubscribe link', {
          token: 'settings.errors.badUnsubscribeLink',
        });
      }
      const current = await settingsOf(target.userId);
      const emailTypes =
        target.type === 'all' ? [] : current.emailTypes.filter((type) => type !== target.type);
      // A link of a deleted account answers like any other: nothing tells who has an account.
      if (await users.findById(target.userId)) {
        await repository.saveSettings(target.userId, emailTypes, current.digest);
      }
      return { type: target.type };
    },

    /**
     * The hourly digest tick: each person on the digest whose local time is between 07:00 and
     * noon and who has not had today's (their today) gets one email of what was not mailed yet.
     * The window rather than the 07:00 hour alone lets a tick missed while no worker ran be made
     * up that morning; the claimed local date keeps it to one digest a day, whichever tick or
     * worker gets there first, across DST changes too (the date, not the hour, is compared).
     */
    async sendDigests(now: Date = new Date()): Promise<number> {
      let sent = 0;
      for (const person of await repository.digestPeople()) {
        const local = localClock(now, person.timeZone ?? 'UTC');
        if (local.hour < DIGEST_HOUR || local.hour >= DIGEST_LATEST_HOUR) continue;
        if (!(await repository.claimDigestDay(person.user_id, local.date))) continue;
        const candidates = await repository.digestCandidates(person.user_id);
        const claimed = await repository.claimForMail(candidates.map((row) => row.id));
        if (claimed.length === 0) continue;
        claimed.sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
        await mailRows(person.user_id, claimed, true);
        sent++;
      }
      return sent;
    },

    purgeOld: () => repository.purge(NOTIFICATION_RETENTION_DAYS),
  };
}

export type NotificationService = ReturnType<typeof createNotificationService>;
