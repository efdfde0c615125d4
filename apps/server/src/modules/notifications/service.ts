import {
  defaultEmailTypes,
  type Notification,
  type NotificationData,
  type NotificationList,
  type NotificationSettings,
  type NotificationType,
  type UnsubscribeScope,
} from '@cadence/shared/schemas/notification';
import type { Logger } from 'pino';
import { AppError } from '../../lib/app-error.ts';
import type { MailService } from '../mail/service.ts';
import type { UserRepository } from '../users/repository.ts';
import { sendDigests } from './digest.ts';
import { createNotificationMailer } from './notification-mailer.ts';
import { toView } from './notification-view.ts';
import type { NotificationRepository } from './repository.ts';
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

export interface NotificationServiceDeps {
  repository: NotificationRepository;
  users: Pick<UserRepository, 'findById'>;
  mail: Pick<MailService, 'queue'>;
  tokens: UnsubscribeTokens;
  publicUrl: string;
  logger: Logger;
}

/**
 * Notifications: the one fan-out of every event (publisher, token refresh, story and compilation
 * jobs call `notify`), the bell's list, email choices and one-click unsubscribes. An event's row
 * is inserted once (dedupe key); its email is queued by whoever claims the row's `mailed_at`,
 * right away or in the daily digest, so an event is never mailed twice.
 */
export function createNotificationService(deps: NotificationServiceDeps) {
  const { repository, users, tokens, logger } = deps;

  async function settingsOf(userId: string): Promise<NotificationSettings> {
    const row = await repository.settingsOf(userId);
    return row
      ? { emailTypes: row.email_types, digest: row.digest }
      : { emailTypes: [...defaultEmailTypes], digest: false };
  }

  const mailRows = createNotificationMailer(deps);

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

    /** The hourly digest tick (digest.ts): at most one digest email a day per person. */
    sendDigests: (now: Date = new Date()) => sendDigests(repository, mailRows, now),

    purgeOld: () => repository.purge(NOTIFICATION_RETENTION_DAYS),
  };
}

export type NotificationService = ReturnType<typeof createNotificationService>;
