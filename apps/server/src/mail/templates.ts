import { dateFormatter } from '@cadence/shared/date-format';
import type { Language } from '@cadence/shared/errors';
import { intlLocale } from '@cadence/shared/locale';

/** A rendered message: plain text and simple HTML saying the same, and the link it is about. */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
  link?: string;
  /** Extra headers (List-Unsubscribe), stored with the message and sent as they are. */
  headers?: Record<string, string>;
}

/** What a message says, once per language; `text` and `html` are both built from it. */
interface MailParts {
  subject: string;
  greeting: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  /** After the action, e.g. "ignore this email if…". */
  closing: string[];
  signature: string;
}

const escapeHtml = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');

/** '1 heure', '90 minutes', '2 hours': how long a link stays valid, in the reader's language. */
export function formatValidity(minutes: number, language: Language): string {
  const [value, unit] = minutes % 60 === 0 ? [minutes / 60, 'hour'] : [minutes, 'minute'];
  return new Intl.NumberFormat(language, { style: 'unit', unit, unitDisplay: 'long' }).format(
    value,
  );
}

/**
 * Plain text and HTML from the same parts. The HTML is one table-free column with inline styles:
 * no images, no remote resources, no tracking pixel, links as they are (no redirect wrapper).
 */
function render(parts: MailParts, language: Language): MailContent {
  const text = [
    parts.greeting,
    ...parts.paragraphs,
    ...(parts.action ? [parts.action.url] : []),
    ...parts.closing,
    parts.signature,
  ].join('\n\n');
  const paragraph = (body: string) =>
    `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(body)}</p>`;
  const action = parts.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(parts.action.url)}" style="display:inline-block;background:#0f172a;color:#ffffff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:600">${escapeHtml(parts.action.label)}</a></p>` +
      `<p style="margin:0 0 16px;line-height:1.5;font-size:13px;color:#475569;word-break:break-all">${escapeHtml(parts.action.url)}</p>`
    : '';
  const html = [
    '<!doctype html>',
    `<html lang="${language}"><head><meta charset="utf-8"><title>${escapeHtml(parts.subject)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#f8fafc;color:#0f172a;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;font-size:15px">',
    '<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:12px;padding:32px">',
    paragraph(parts.greeting),
    ...parts.paragraphs.map(paragraph),
    action,
    ...parts.closing.map(paragraph),
    paragraph(parts.signature),
    '</div></body></html>',
  ].join('');
  return {
    subject: parts.subject,
    text,
    html,
    ...(parts.action && { link: parts.action.url }),
  };
}

export interface PasswordResetMail {
  name: string;
  /** The reset page with its single-use token. */
  link: string;
  validForMinutes: number;
}

const passwordResetParts: Record<Language, (params: PasswordResetMail) => MailParts> = {
  fr: ({ name, link, validForMinutes }) => ({
    subject: 'Réinitialisez votre mot de passe Cadence',
    greeting: `Bonjour ${name},`,
    paragraphs: [
      `Une demande de réinitialisation du mot de passe de votre compte Cadence a été faite. Pour choisir un nouveau mot de passe, ouvrez ce lien (valable ${formatValidity(validForMinutes, 'fr')}, utilisable une seule fois) :`,
    ],
    action: { label: 'Choisir un nouveau mot de passe', url: link },
    closing: [
      "Si vous n'êtes pas à l'origine de cette demande, ignorez cet email : votre mot de passe reste inchangé.",
      'Une fois le mot de passe changé, toutes vos sessions ouvertes sont déconnectées.',
    ],
    signature: "L'équipe Cadence",
  }),
  en: ({ name, link, validForMinutes }) => ({
    subject: 'Reset your Cadence password',
    greeting: `Hello ${name},`,
    paragraphs: [
      `Someone asked to reset the password of your Cadence account. To choose a new password, open this link (valid for ${formatValidity(validForMinutes, 'en')}, usable once):`,
    ],
    action: { label: 'Choose a new password', url: link },
    closing: [
      'If you did not ask for this, ignore this email: your password stays as it is.',
      'Once the password is changed, every open session is signed out.',
    ],
    signature: 'The Cadence team',
  }),
};

export interface NotificationMailLine {
  text: string;
  /** A link about this line ('Reprogrammer', 'Reconnecter'), shown after it. */
  action?: { label: string; url: string };
}

export interface NotificationMail {
  subject: string;
  greeting: string;
  intro?: string;
  lines: NotificationMailLine[];
  /** The main button (the first line's action, or "open Cadence"). */
  action: { label: string; url: string };
  /** Unsubscribe sentences with their links (one per type the mail is about) and a settings line. */
  footer: string[];
  signature: string;
  /** RFC 8058: the URL a mail client POSTs `List-Unsubscribe=One-Click` to. */
  oneClickUnsubscribeUrl: string;
}

/**
 * A notification (or a daily digest of them). Carries RFC 2369/8058 headers so mail clients show
 * their own 'unsubscribe' button, which unsubscribes in one POST without opening a page.
 */
export function notificationMail(language: Language, mail: NotificationMail): MailContent {
  const paragraphs = [
    ...(mail.intro ? [mail.intro] : []),
    ...mail.lines.flatMap((line) =>
      line.action
        ? [line.text, `${line.action.label}${language === 'fr' ? ' :' : ':'} ${line.action.url}`]
        : [line.text],
    ),
  ];
  return {
    ...render(
      {
        subject: mail.subject,
        greeting: mail.greeting,
        paragraphs,
        action: mail.action,
        closing: mail.footer,
        signature: mail.signature,
      },
      language,
    ),
    headers: {
      'List-Unsubscribe': `<${mail.oneClickUnsubscribeUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

/** The password reset message in the account's language. */
export function passwordResetMail(language: Language, params: PasswordResetMail): MailContent {
  return render(passwordResetParts[language](params), language);
}

/** One message in both languages: its parts per language, rendered as text and HTML. */
function template<TParams>(parts: Record<Language, (params: TParams) => MailParts>) {
  return (language: Language, params: TParams): MailContent =>
    render(parts[language](params), language);
}

const formatDate = (date: Date, language: Language, timeZone: string) =>
  dateFormatter(intlLocale(language), { dateStyle: 'long', timeStyle: 'short', timeZone }).format(
    date,
  );

export interface DataExportReadyMail {
  name: string;
  /** The settings page, where the signed-in owner downloads the archive. */
  link: string;
  expiresAt: Date;
  timeZone: string;
}

/** 'Your data is ready': the archive is downloaded from the settings page, signed in. */
export const dataExportReadyMail = template<DataExportReadyMail>({
  fr: ({ name, link, expiresAt, timeZone }) => ({
    subject: 'Vos données Cadence sont prêtes',
    greeting: `Bonjour ${name},`,
    paragraphs: [
      "L'archive de vos données (un fichier ZIP avec vos informations au format JSON et vos vidéos) est prête. Téléchargez-la depuis vos paramètres, connecté à votre compte :",
    ],
    action: { label: 'Télécharger mes données', url: link },
    closing: [
      `Elle sera supprimée le ${formatDate(expiresAt, 'fr', timeZone)}. Vous pourrez en demander une nouvelle à tout moment.`,
      "Si vous n'avez pas demandé cette archive, changez votre mot de passe.",
    ],
    signature: "L'équipe Cadence",
  }),
  en: ({ name, link, expiresAt, timeZone }) => ({
    subject: 'Your Cadence data is ready',
    greeting: `Hello ${name},`,
    paragraphs: [
      'The archive of your data (a ZIP file with your information as JSON and your videos) is ready. Download it from your settings, signed in to your account:',
    ],
    action: { label: 'Download my data', url: link },
    closing: [
      `It will be deleted on ${formatDate(expiresAt, 'en', timeZone)}. You can ask for a new one at any time.`,
      'If you did not ask for this archive, change your password.',
    ],
    signature: 'The Cadence team',
  }),
});

export interface EmailLinkMail {
  name: string;
  link: string;
  validForMinutes: number;
}

/** Sent to the new address: opening the link makes it the account's address. */
export const emailChangeMail = template<EmailLinkMail & { newEmail: string }>({
  fr: ({ name, link, validForMinutes, newEmail }) => ({
    subject: 'Confirmez votre nouvelle adresse email Cadence',
    greeting: `Bonjour ${name},`,
    paragraphs: [
      `Vous avez demandé à utiliser ${newEmail} pour votre compte Cadence. Pour confirmer, ouvrez ce lien (valable ${formatValidity(validForMinutes, 'fr')}, utilisable une seule fois) :`,
    ],
    action: { label: 'Confirmer cette adresse', url: link },
    closing: ["Si vous n'êtes pas à l'origine de cette demande, ignorez cet email."],
    signature: "L'équipe Cadence",
  }),
  en: ({ name, link, validForMinutes, newEmail }) => ({
    subject: 'Confirm your new Cadence email address',
    greeting: `Hello ${name},`,
    paragraphs: [
      `You asked to use ${newEmail} for your Cadence account. To confirm, open this link (valid for ${formatValidity(validForMinutes, 'en')}, usable once):`,
    ],
    action: { label: 'Confirm this address', url: link },
    closing: ['If you did not ask for this, ignore this email.'],
    signature: 'The Cadence team',
  }),
});

/** Sent to the old address once the change is confirmed. */
export const emailChangedMail = template<{ name: string; newEmail: string; contact: string }>({
  fr: ({ name, newEmail, contact }) => ({
    subject: 'L’adresse email de votre compte Cadence a changé',
    greeting: `Bonjour ${name},`,
    paragraphs: [
      `Votre compte Cadence utilise désormais l'adresse ${newEmail}. Les prochains emails de Cadence y seront envoyés.`,
    ],
    closing: [
      `Si vous n'êtes pas à l'origine de ce changement, écrivez-nous sans attendre à ${contact}.`,
    ],
    signature: "L'équipe Cadence",
  }),
  en: ({ name, newEmail, contact }) => ({
    subject: 'The email address of your Cadence account changed',
    greeting: `Hello ${name},`,
    paragraphs: [
      `Your Cadence account now uses the address ${newEmail}. Cadence's next emails will go there.`,
    ],
    closing: [`If you did not make this change, write to us at once at ${contact}.`],
    signature: 'The Cadence team',
  }),
});

/**
 * The goodbye, to the address of an account just deleted: nothing is left, TikTok's access is
 * revoked. Written from what was read before the deletion (the rows are gone when it is sent).
 */
export const accountDeletedMail = template<{ name: string; contact: string }>({
  fr: ({ name, contact }) => ({
    subject: 'Votre compte Cadence a été supprimé',
    greeting: `Bonjour ${name},`,
    paragraphs: [
      'Votre compte Cadence et toutes ses données ont été supprimés, comme vous l’avez demandé : vos vidéos, stories, compilations, statistiques, notifications et publications en attente.',
      "L'accès de Cadence à vos comptes TikTok a été révoqué : Cadence ne peut plus rien publier ni lire en votre nom. Les vidéos déjà publiées restent sur TikTok.",
    ],
    closing: [
      `Si vous n'êtes pas à l'origine de cette suppression, écrivez-nous sans attendre à ${contact}.`,
      "C'est le dernier email que Cadence vous envoie.",
    ],
    signature: "L'équipe Cadence",
  }),
  en: ({ name, contact }) => ({
    subject: 'Your Cadence account was deleted',
    greeting: `Hello ${name},`,
    paragraphs: [
      'Your Cadence account and all its data were deleted, as you asked: your videos, stories, compilations, statistics, notifications and pending posts.',
      "Cadence's access to your TikTok accounts was revoked: Cadence can no longer publish or read anything on your behalf. Videos already published stay on TikTok.",
    ],
    closing: [
      `If you did not delete your account, write to us at once at ${contact}.`,
      'This is the last email Cadence sends you.',
    ],
    signature: 'The Cadence team',
  }),
});

/** REQUIRE_EMAIL_VERIFICATION: the link that confirms the address (at sign-up, or resent). */
export const emailVerificationMail = template<EmailLinkMail>({
  fr: ({ name, link, validForMinutes }) => ({
    subject: 'Confirmez votre adresse email Cadence',
    greeting: `Bonjour ${name},`,
    paragraphs: [
      `Pour confirmer votre adresse et pouvoir publier sur TikTok avec Cadence, ouvrez ce lien (valable ${formatValidity(validForMinutes, 'fr')}) :`,
    ],
    action: { label: 'Confirmer mon adresse', url: link },
    closing: ["Si vous n'avez pas créé de compte Cadence, ignorez cet email."],
    signature: "L'équipe Cadence",
  }),
  en: ({ name, link, validForMinutes }) => ({
    subject: 'Confirm your Cadence email address',
    greeting: `Hello ${name},`,
    paragraphs: [
      `To confirm your address and be able to publish to TikTok with Cadence, open this link (valid for ${formatValidity(validForMinutes, 'en')}):`,
    ],
    action: { label: 'Confirm my address', url: link },
    closing: ['If you did not create a Cadence account, ignore this email.'],
    signature: 'The Cadence team',
  }),
});
