import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { freePort, waitFor } from '../../../../e2e/support/server.ts';

/** A message as the SMTP server received it, parsed. */
export interface ReceivedMail {
  /** Envelope recipients (RCPT TO). */
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  headers: Map<string, unknown>;
  raw: string;
}

export interface SmtpTestServer {
  /** smtp://127.0.0.1:<port>, for SMTP_URL. */
  url: string;
  received: ReceivedMail[];
  /** The first message to `address` (case-insensitive) received after `after` of them; polls. */
  waitForMail(
    address: string,
    options?: { after?: number; timeoutMs?: number },
  ): Promise<ReceivedMail>;
  /** Messages received so far for `address`. */
  mailsTo(address: string): ReceivedMail[];
  /** The next `count` messages are refused with a 451 (temporary failure), as a busy server does. */
  refuseNext(count: number): void;
  close(): Promise<void>;
}

/**
 * A real SMTP server (the `smtp-server` package) on a free loopback port, keeping every message it
 * accepts: tests send through nodemailer over the network and read what arrived.
 */
export async function startSmtpTestServer(): Promise<SmtpTestServer> {
  const received: ReceivedMail[] = [];
  let refusals = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (refusals > 0) {
          refusals -= 1;
          const error = Object.assign(new Error('Try again later'), { responseCode: 451 });
          callback(error);
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        simpleParser(raw)
          .then((parsed) => {
            received.push({
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
              html: parsed.html === false ? '' : (parsed.html ?? ''),
              messageId: parsed.messageId ?? '',
              headers: parsed.headers,
              raw,
            });
            callback();
          })
          .catch((error: unknown) =>
            callback(error instanceof Error ? error : new Error(String(error))),
          );
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const mailsTo = (address: string) =>
    received.filter((mail) => mail.to.includes(address.toLowerCase()));
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    mailsTo,
    waitForMail(address, { after = 0, timeoutMs = 20_000 } = {}) {
      return waitFor(async () => mailsTo(address)[after], {
        timeoutMs,
        what: `mail number ${after + 1} to ${address}`,
      });
    },
    refuseNext(count) {
      refusals = count;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
