import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpTestServer, type SmtpTestServer } from '../test-support/smtp-test-server.ts';
import { createMailTransport, type OutgoingMail } from './mail-transport.ts';

let smtp: SmtpTestServer;
let dir: string;
beforeAll(async () => {
  smtp = await startSmtpTestServer();
  dir = mkdtempSync(path.join(os.tmpdir(), 'cadence-mail-'));
});
afterAll(async () => {
  await smtp.close();
  rmSync(dir, { recursive: true, force: true });
});

const message = (id: string, to: string): OutgoingMail => ({
  id,
  to,
  subject: 'Réinitialisez votre mot de passe',
  text: 'Bonjour Zoé,\n\nhttp://localhost/auth/reset?token=t0k3n',
  html: '<p>Bonjour Zoé,</p><p><a href="http://localhost/auth/reset?token=t0k3n">lien</a></p>',
  link: 'http://localhost/auth/reset?token=t0k3n',
});

describe('mail transport', () => {
  it('sends through SMTP_URL: the server receives the text and HTML parts from MAIL_FROM', async () => {
    const transport = createMailTransport({
      smtpUrl: smtp.url,
      from: 'Cadence <no-reply@cadence.test>',
      outboxDir: path.join(dir, 'unused'),
      messageIdDomain: 'cadence.test',
      logger: pino({ level: 'silent' }),
    });
    expect(transport.kind).toBe('smtp');
    await transport.send(message('0b6c1c9e-smtp', 'Zoe@Example.com'));
    transport.close();
    const mail = await smtp.waitForMail('zoe@example.com');
    expect(mail.from).toBe('no-reply@cadence.test');
    expect(mail.subject).toBe('Réinitialisez votre mot de passe');
    expect(mail.text).toContain('Bonjour Zoé,');
    expect(mail.html).toContain('href="http://localhost/auth/reset?token=t0k3n"');
    expect(mail.messageId).toBe('<0b6c1c9e-smtp@cadence.test>');
    expect(mail.headers.get('auto-submitted')).toBe('auto-generated');
    // Nothing written to disk when SMTP is configured.
    expect(() => readdirSync(path.join(dir, 'unused'))).toThrow();
  });

  it('fails when the SMTP server refuses, so the job can retry', async () => {
    const transport = createMailTransport({
      smtpUrl: smtp.url,
      from: 'no-reply@cadence.test',
      outboxDir: dir,
      messageIdDomain: 'cadence.test',
      logger: pino({ level: 'silent' }),
    });
    smtp.refuseNext(1);
    await expect(transport.send(message('refused', 'refused@example.com'))).rejects.toThrow(
      /451|Try again later/,
    );
    expect(smtp.mailsTo('refused@example.com')).toEqual([]);
    transport.close();
  });

  it('without SMTP_URL writes <id>.eml to the outbox (owner-only) and logs the link', async () => {
    const outboxDir = path.join(dir, 'outbox');
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    const transport = createMailTransport({
      smtpUrl: null,
      from: 'Cadence <no-reply@localhost>',
      outboxDir,
      messageIdDomain: 'localhost',
      logger,
    });
    expect(transport.kind).toBe('outbox');
    await transport.send(message('7f1d-outbox', 'zoe@example.com'));
    // A retry of the same message replaces its file: still one message.
    await transport.send(message('7f1d-outbox', 'zoe@example.com'));
    expect(readdirSync(outboxDir)).toEqual(['7f1d-outbox.eml']);
    const file = path.join(outboxDir, '7f1d-outbox.eml');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(outboxDir).mode & 0o777).toBe(0o700);
    const parsed = await simpleParser(readFileSync(file));
    expect(parsed.subject).toBe('Réinitialisez votre mot de passe');
    expect(parsed.text).toContain('Bonjour Zoé,');
    expect(parsed.html).toContain('href="http://localhost/auth/reset?token=t0k3n"');
    expect(parsed.messageId).toBe('<7f1d-outbox@localhost>');
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged[0]).toMatchObject({ file, link: 'http://localhost/auth/reset?token=t0k3n' });
    transport.close();
  });
});
