import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';

/** One message, ready to go: the mail module renders it, the transport only delivers it. */
export interface OutgoingMail {
  /** The outbox row's id: the Message-ID's left part and the .eml file's name. */
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The link the message is about (logged when written to the outbox, for a local install). */
  link?: string;
  /** Extra headers, e.g. List-Unsubscribe. */
  headers?: Record<string, string>;
}

export interface MailTransport {
  /** 'smtp' when the server accepted the message, 'outbox' when it was written to a file. */
  readonly kind: 'smtp' | 'outbox';
  /** Resolves once the SMTP server accepted the message (or the file is written); else throws. */
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

export interface MailTransportOptions {
  /** smtp:// or smtps:// URL; null writes each message to `outboxDir` instead. */
  smtpUrl: string | null;
  from: string;
  outboxDir: string;
  /** The domain of Message-IDs (PUBLIC_URL's host). */
  messageIdDomain: string;
  logger: Logger;
}

// Bounded so a job never waits on a silent server longer than its lease (modules/mail): nodemailer's
// defaults (2 min to connect, 10 min of socket silence) exceed it.
const SMTP_TIMEOUTS = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 };

/**
 * Delivers rendered messages through nodemailer: to the SMTP server of SMTP_URL, or, with none (the
 * embedded default), as `<id>.eml` files in DATA_DIR/outbox so a local install works end to end.
 * The Message-ID is derived from the outbox row, so a message written twice is one file, and a
 * mail client can tell a resent copy from a new message.
 */
export function createMailTransport(options: MailTransportOptions): MailTransport {
  const headersOf = (mail: OutgoingMail) => ({
    from: options.from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    messageId: `<${mail.id}@${options.messageIdDomain}>`,
    // No tracking: nodemailer adds no pixel or link rewriting; these only say what kind of mail it is.
    headers: { ...mail.headers, 'Auto-Submitted': 'auto-generated' },
  });

  if (options.smtpUrl) {
    const transporter = nodemailer.createTransport({ url: options.smtpUrl, ...SMTP_TIMEOUTS });
    return {
      kind: 'smtp',
      async send(mail) {
        await transporter.sendMail(headersOf(mail));
      },
      close: () => transporter.close(),
    };
  }

  const composer = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  });
  return {
    kind: 'outbox',
    async send(mail) {
      const info = await composer.sendMail(headersOf(mail));
      if (!Buffer.isBuffer(info.message)) throw new Error('nodemailer did not buffer the message');
      // Owner-only: the files hold links that sign a person in (password resets).
      await mkdir(options.outboxDir, { recursive: true, mode: 0o700 });
      const file = path.join(options.outboxDir, `${mail.id}.eml`);
      // Written whole, then renamed: a reader never sees half a message, a retry replaces it.
      const partial = `${file}.partial`;
      await writeFile(partial, info.message, { mode: 0o600 });
      await rename(partial, file);
      options.logger.info(
        { file, ...(mail.link && { link: mail.link }) },
        'no SMTP_URL: message written to the outbox instead of being sent',
      );
    },
    close: () => composer.close(),
  };
}
