import type { AppContext } from '../context.ts';
import type { TokenCipher } from '../lib/token-cipher.ts';
import type { MailTransport } from '../mail/mail-transport.ts';
import { enqueueMail } from '../modules/mail/jobs.ts';
import { createMailRepository } from '../modules/mail/repository.ts';
import { createMailService } from '../modules/mail/service.ts';
import { createNotificationRepository } from '../modules/notifications/repository.ts';
import { createNotificationService } from '../modules/notifications/service.ts';
import { createUnsubscribeTokens } from '../modules/notifications/unsubscribe-token.ts';
import { createUserRepository } from '../modules/users/repository.ts';
import type { Wiring } from './wiring.ts';

/** Outgoing mail (an outbox row per message) and the notifications that use it. */
export function createMessaging(
  { config, logger, database, boss }: Wiring,
  cipher: TokenCipher,
  transport: MailTransport,
): Pick<AppContext, 'mail' | 'notifications'> {
  const mail = createMailService({
    repository: createMailRepository(database.db),
    cipher,
    transport,
    enqueue: (messageId) => enqueueMail(boss, messageId),
    logger,
  });
  // Every event a person hears about goes through this one service (bell, email, digest).
  const notifications = createNotificationService({
    repository: createNotificationRepository(database.db),
    users: createUserRepository(database.db),
    mail,
    tokens: createUnsubscribeTokens(config.sessionSecret),
    publicUrl: config.publicUrl,
    logger,
  });
  return { mail, notifications };
}
