import { randomUUID } from 'node:crypto';
import type { Language } from '@cadence/shared/errors';
import type { Logger } from 'pino';
import { z } from 'zod';
import { giveUpOrphans } from '../../jobs/orphans.ts';
import type { TokenCipher } from '../../lib/token-cipher.ts';
import type { MailTransport } from '../../mail/mail-transport.ts';
import type { MailContent } from '../../mail/templates.ts';
import type { MailKind } from './db-types.ts';
import type { MailRepository } from './repository.ts';

/**
 * How long one delivery attempt holds its message. Longer than the transport's worst case (30 s to
 * connect + 30 s greeting + 60 s of silence), shorter than the job's expiry (jobs.ts), so the
 * retry of a job whose worker died can take the message over.
 */
export const DELIVERY_LEASE_SECONDS = 3 * 60;

export interface QueuedMail {
  kind: MailKind;
  userId: string | null;
  to: string;
  language: Language;
  content: MailContent;
}

export type DeliveryOutcome = 'sent' | 'already-sent' | 'given-up' | 'missing';

const storedContentSchema = z.object({
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  link: z.string().optional(),
  headers: z.record(z.string(), z.string()).optional(),
});

/**
 * Messages whose row goes once sent or given up, instead of staying 30 days for the per-address
 * limits: the goodbye to a deleted account, whose address nothing else may keep (decision 029).
 */
const forgottenOnceSettled: readonly MailKind[] = ['account-deleted'];

export class MailBusyError extends Error {
  override name = 'MailBusyError';
}

export interface MailServiceDeps {
  repository: MailRepository;
  cipher: TokenCipher;
  transport: MailTransport;
  /** Queues the delivery job of a stored message (jobs.ts). */
  enqueue: (messageId: string) => Promise<void>;
  logger: Logger;
}

/**
 * Outgoing mail as an outbox: `queue` stores the rendered message (encrypted) and queues its
 * delivery; the job calls `deliver`, which sends a message at most once per row: a row is claimed
 * before sending and marked sent after, and a job finding it sent does nothing.
 */
export function createMailService({
  repository,
  cipher,
  transport,
  enqueue,
  logger,
}: MailServiceDeps) {
  /** Stores the message and queues its delivery; returns the outbox row's id. */
  async function queue(mail: QueuedMail): Promise<string> {
    const id = randomUUID();
    await repository.insert({
      id,
      user_id: mail.userId,
      kind: mail.kind,
      to_address: mail.to,
      language: mail.language,
      subject: mail.content.subject,
      content_enc: cipher.encrypt(JSON.stringify(mail.content)),
    });
    await enqueue(id);
    return id;
  }

  /** The last attempt failed: no more tries; the row keeps the reason, its content is erased. */
  async function giveUp(id: string, error: unknown): Promise<void> {
    await repository.markFailed(id, error instanceof Error ? error.message : String(error));
    await repository.forgetSettled(id, forgottenOnceSettled);
  }

  return {
    transportKind: transport.kind,

    queue,

    /** How many messages of a kind went to an address recently (per-address limits). */
    countRecent(kind: MailKind, to: string, withinSeconds: number): Promise<number> {
      return repository.countRecent(kind, to, withinSeconds);
    },

    /**
     * Queues `mail` unless its address already got `perHour` messages of its kind in the last
     * hour (reset, change and confirmation links: many clients must not flood one mailbox).
     * Returns false, and logs why, when the limit held it back.
     */
    async queueWithinHourlyLimit(mail: QueuedMail, perHour: number): Promise<boolean> {
      const recent = await repository.countRecent(mail.kind, mail.to, 60 * 60);
      if (recent >= perHour) {
        logger.warn(
          { userId: mail.userId, kind: mail.kind, recent },
          'mail not sent: hourly limit',
        );
        return false;
      }
      await queue(mail);
      return true;
    },

    /**
     * Sends one stored message unless it was sent already. Throws when the transport refused it
     * (the job is retried) or when another worker is delivering it right now.
     */
    async deliver(id: string): Promise<DeliveryOutcome> {
      const row = await repository.claim(id, DELIVERY_LEASE_SECONDS);
      if (!row) {
        const current = await repository.find(id);
        if (!current) return 'missing';
        if (current.sent_at) return 'already-sent';
        if (current.failed_at) return 'given-up';
        // Another attempt holds it: try again later, when it has finished or its lease ran out.
        throw new MailBusyError(`mail ${id} is being delivered by another attempt`);
      }
      if (!row.content_enc) {
        await repository.markFailed(id, 'no content to send');
        return 'given-up';
      }
      const content = storedContentSchema.parse(JSON.parse(cipher.decrypt(row.content_enc)));
      try {
        await transport.send({ id: row.id, to: row.to_address, ...content });
      } catch (error) {
        await repository.releaseAfterError(
          id,
          error instanceof Error ? error.message : String(error),
        );
        throw error;
      }
      await repository.markSent(id);
      // Only those kinds: every other sent mail would pay a DELETE that matches nothing.
      if (forgottenOnceSettled.includes(row.kind)) {
        await repository.forgetSettled(id, forgottenOnceSettled);
      }
      logger.info({ mailId: id, kind: row.kind, via: transport.kind }, 'mail sent');
      return 'sent';
    },

    giveUp,

    /**
     * mail.purge: messages no job will deliver any more (see `orphaned`) are given up as the
     * job's last failure would have; returns how many.
     */
    failOrphaned(queue: string): Promise<number> {
      return giveUpOrphans((createdBefore) => repository.orphaned(createdBefore, queue), giveUp);
    },

    /** Forgets messages older than 30 days (sent or not). */
    purgeOld(): Promise<number> {
      return repository.purge(30);
    },
  };
}

export type MailService = ReturnType<typeof createMailService>;
