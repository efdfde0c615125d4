import { z } from 'zod';
import { timeZoneSchema } from './time-zone.ts';
import { languageSchema } from './person.ts';
import { messageKey } from '../translation-key.ts';

/**
 * Bodies of the better-auth endpoints Cadence exposes under /api/auth. The server parses each with
 * these before better-auth sees it, so every account field has one set of limits wherever it is
 * written (sign-up, profile update, password change). Messages are translation keys.
 */

/** Spec §8: at least 6 characters. better-auth refuses more than 128 by default: same here. */
export const minPasswordLength = 6;
export const maxPasswordLength = 128;
export const maxNameLength = 100;
/** RFC 5321's longest deliverable address. */
export const maxEmailLength = 254;

const fillAllFields = messageKey('auth.errors.fillAllFields');
/** A missing field asks to fill the form; a value of the wrong type is simply invalid. */
const requiredString = {
  error: (issue: { input: unknown }) =>
    issue.input === undefined ? fillAllFields : messageKey('errors.invalid_value'),
};

export const nameSchema = z
  .string(requiredString)
  .trim()
  .min(1, fillAllFields)
  .max(maxNameLength, messageKey('auth.errors.nameTooLong'));

export const emailSchema = z
  .string(requiredString)
  .trim()
  .min(1, fillAllFields)
  .max(maxEmailLength, messageKey('auth.errors.invalidEmail'))
  .pipe(z.email(messageKey('auth.errors.invalidEmail')));

/** A new password (sign-up, change). */
export const newPasswordSchema = z
  .string(requiredString)
  .min(1, fillAllFields)
  .min(minPasswordLength, messageKey('auth.errors.weakPassword'))
  .max(maxPasswordLength, messageKey('auth.errors.passwordTooLong'));

/** A password being checked: no minimum beyond presence, the same maximum. */
const existingPasswordSchema = z
  .string(requiredString)
  .min(1, fillAllFields)
  .max(maxPasswordLength, messageKey('auth.errors.wrongCredentials'));

/** POST /api/auth/sign-up/email */
export const signUpSchema = z
  .object({
    name: nameSchema,
    email: emailSchema,
    password: newPasswordSchema,
    preferredLanguage: languageSchema.optional(),
    /** The browser's IANA zone (Intl.DateTimeFormat().resolvedOptions().timeZone). */
    timeZone: timeZoneSchema.optional(),
  })
  .strict();
export type SignUp = z.infer<typeof signUpSchema>;

/** POST /api/auth/sign-in/email */
export const signInSchema = z
  .object({ email: emailSchema, password: existingPasswordSchema })
  .strict();
export type SignIn = z.infer<typeof signInSchema>;

/** POST /api/auth/update-user: the profile fields a person may change (no email, no avatar URL). */
export const updateUserSchema = z
  .object({ name: nameSchema.optional(), preferredLanguage: languageSchema.optional() })
  .strict()
  .refine((body) => body.name !== undefined || body.preferredLanguage !== undefined, {
    message: messageKey('errors.invalid_value'),
  });
export type UpdateUser = z.infer<typeof updateUserSchema>;

/**
 * POST /api/auth/change-password. The person's other sessions always end (the server adds
 * better-auth's `revokeOtherSessions`): whoever learnt the old password is signed out with it.
 */
export const changePasswordSchema = z
  .object({ currentPassword: existingPasswordSchema, newPassword: newPasswordSchema })
  .strict();
export type ChangePassword = z.infer<typeof changePasswordSchema>;

/** POST /api/auth/request-password-reset: the same answer whether or not the address exists. */
export const requestPasswordResetSchema = z.object({ email: emailSchema }).strict();
export type RequestPasswordReset = z.infer<typeof requestPasswordResetSchema>;

/** The token of a reset link: better-auth's 24 letters and digits; anything else is no link of ours. */
export const resetTokenSchema = z
  .string(requiredString)
  .regex(/^[A-Za-z0-9_-]{16,128}$/, messageKey('auth.errors.resetLinkInvalid'));

/** POST /api/auth/reset-password: a new password for the account a reset link was sent to. */
export const resetPasswordSchema = z
  .object({ token: resetTokenSchema, newPassword: newPasswordSchema })
  .strict();
export type ResetPassword = z.infer<typeof resetPasswordSchema>;

/** A new password typed twice (reset and change forms); the API gets `newPassword` only. */
export const newPasswordConfirmationSchema = z
  .object({ newPassword: newPasswordSchema, confirmPassword: z.string() })
  .refine((form) => form.newPassword === form.confirmPassword, {
    path: ['confirmPassword'],
    message: messageKey('auth.errors.passwordsDiffer'),
  });

/**
 * POST /api/auth/revoke-session: one of my sessions, by the id list-sessions shows. (better-auth
 * names it by its token, which never leaves the server: the server finds it from the id.)
 */
export const revokeSessionSchema = z.object({ id: z.string().min(1).max(256) }).strict();

/** Endpoints that take no input (sign-out, revoke-sessions…): nothing, or an empty object. */
export const emptyBodySchema = z.object({}).strict().optional();

/** One of my sessions, as GET /api/auth/list-sessions lists it (its token never leaves the server). */
export const authSessionSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  /** Refreshed at most once a day while the session is used (better-auth's updateAge). */
  updatedAt: z.string(),
  expiresAt: z.string(),
  ipAddress: z.string().nullish(),
  userAgent: z.string().nullish(),
});
export type AuthSession = z.infer<typeof authSessionSchema>;

/** GET /api/auth/get-session: the session this request came with, or null when signed out. */
export const currentSessionSchema = z
  .object({ session: authSessionSchema.pick({ id: true }) })
  .nullable();

/*
 * Replies of the better-auth endpoints, as the server forwards them (session tokens removed).
 * better-auth writes them, so they are described loosely: the fields Cadence relies on, and
 * whatever else better-auth adds passes. They document /api/openapi.json and the web app parses
 * with them; the auth tests check real replies against them.
 */

/** The signed-in person, as better-auth answers it (sign-up, sign-in, change-password, get-session). */
export const authUserSchema = z.looseObject({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  emailVerified: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** POST /api/auth/sign-up/email, sign-in/email, change-password: the person now signed in. */
export const authUserReplySchema = z.looseObject({ user: authUserSchema });

/** GET /api/auth/get-session, described in full (the web reads only the session id). */
export const sessionReplySchema = z
  .object({ session: authSessionSchema, user: authUserSchema })
  .nullable();

/** POST /api/auth/sign-out. */
export const signOutReplySchema = z.object({ success: z.boolean() });

/** update-user, request-password-reset (the same answer for any address), reset-password, revoke-*. */
export const authStatusReplySchema = z.looseObject({ status: z.boolean() });
