import { z } from 'zod'

/**
 * Email addresses, as the sign-in form checks them (docs/pages.md#validation-messages): a local part of letters, digits
 * and . _ % + -, an @, a domain of letters, digits and hyphens, a dot and a top-level domain. The first
 * design said 2-3 letters for the last part; we accept longer ones too (.email, .studio), or such users
 * could never sign in.
 */
export const EMAIL_PATTERN = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/
/** Letters, digits, dot, underscore and space (docs/pages.md#validation-messages). */
export const NAME_PATTERN = /^[A-Za-z0-9._ ]+$/

/**
 * A name from a sign-in (a Google account's, a sign-up form's) within the name rules: accents dropped
 * ("José" becomes "Jose"), other characters outside NAME_PATTERN removed, spaces collapsed, at most
 * USER_NAME_MAX characters; '' when nothing is left.
 */
export function nameWithinRules(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^A-Za-z0-9._ ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, USER_NAME_MAX)
    .trim()
}

export const PASSWORD_MIN = 6
export const SIGN_UP_NAME_MIN = 5
export const USER_NAME_MAX = 60
export const JOB_MAX = 80
export const DESCRIPTION_MAX = 500

export const emailSchema = z.string().trim().max(254).regex(EMAIL_PATTERN, 'Provide a valid email address')

/**
 * Top-level domains reserved so that no one can ever own an address there (RFC 2606 and 6761); the
 * demo content belongs to such an address, and the server refuses sign-ins with them.
 */
export const RESERVED_EMAIL_DOMAIN = /\.(invalid|test|example|localhost)$/i
export const isReservedEmail = (email: string) => RESERVED_EMAIL_DOMAIN.test(email.trim())

/** Where a photo or cover may point: our own stored files, or an https image elsewhere. */
export const imageUrlSchema = z
  .string()
  .max(2048)
  .refine((value) => /^\/api\/files\/[0-9a-f]{24}(\/[^/?#]*)?$/.test(value) || /^https:\/\/[^\s"'<>]+$/.test(value), {
    message: 'Must be an uploaded image or an https link',
  })

// ---- Forms (messages: docs/pages.md#validation-messages; checked in the browser and again on the server) ----

export const signInFormSchema = z.object({
  email: z.string().min(1, 'Email is required').regex(EMAIL_PATTERN, 'Provide a valid email address'),
  password: z.string().min(1, 'Password is required').min(PASSWORD_MIN, 'Password must be at least 6 characters'),
})
export type SignInForm = z.infer<typeof signInFormSchema>

/** Forgot password: the address to send the link to, checked like the sign-in form's. */
export const passwordResetFormSchema = z.object({ email: signInFormSchema.shape.email })
export type PasswordResetForm = z.infer<typeof passwordResetFormSchema>

export const signUpFormSchema = z.object({
  name: z
    .string()
    .min(1, 'Name is required')
    .regex(NAME_PATTERN, 'Provide a valid name')
    .min(SIGN_UP_NAME_MIN, 'Name should be at least 5 characters')
    .max(USER_NAME_MAX, `Name should be at most ${USER_NAME_MAX} characters`),
  email: z.string().min(1, 'Email is required').regex(EMAIL_PATTERN, 'Provide a valid email address'),
  password: z.string().min(1, 'Password is required').min(PASSWORD_MIN, 'Password must be at least 6 characters'),
})
export type SignUpForm = z.infer<typeof signUpFormSchema>

// ---- API payloads ----

export const roleSchema = z.enum(['user', 'admin'])

/** A user as the API shows it (docs/rest-api.md#data-shapes). */
export const userSchema = z.object({
  email: z.string(),
  user_name: z.string(),
  role: roleSchema,
  photo: z.string(),
  cover: z.string(),
  url: z.string(),
  job: z.string(),
  description: z.string(),
  /**
   * Whether lists and searches show them sensitive stickers (their own choice, off until they turn it on);
   * absent in copies saved offline before it existed. Only in answers to the person themself: never in a public
   * profile, nor in an admin's answers about someone else (read as false there).
   */
  showSensitive: z.boolean().default(false),
})
export type User = z.infer<typeof userSchema>

/**
 * GET /api/profile/{email} about someone else: a contributor's public profile, without the role (their
 * own profile and verified admins get the whole User).
 */
export const publicProfileSchema = userSchema.omit({ role: true, showSensitive: true })
export type PublicProfile = z.infer<typeof publicProfileSchema>

/**
 * PUT /api/user/{email} with a Firebase ID token as bearer: register or sign in. With `session` (the
 * session token about to expire) it renews that session instead of starting another, so ending the
 * session on the server ends its renewals too.
 */
export const signInPayloadSchema = z
  .object({
    email: emailSchema,
    user_name: z.string().trim().max(USER_NAME_MAX).default(''),
    photo: z.union([imageUrlSchema, z.literal('')]).default(''),
    session: z.string().max(4096).optional(),
  })
  .strict()
export type SignInPayload = z.input<typeof signInPayloadSchema>

/** PUT /api/user/{email} with our session token as bearer: update one's own profile. Every field optional. */
export const profileUpdateSchema = z
  .object({
    user_name: z.string().trim().min(1, 'Name is required').max(USER_NAME_MAX).regex(NAME_PATTERN, 'Provide a valid name'),
    photo: z.union([imageUrlSchema, z.literal('')]),
    cover: z.union([imageUrlSchema, z.literal('')]),
    url: z.union([
      z
        .string()
        .trim()
        .max(2048)
        .regex(/^https?:\/\/[^\s"'<>]+$/, 'Must be an http(s) link'),
      z.literal(''),
    ]),
    job: z.string().trim().max(JOB_MAX),
    description: z.string().trim().max(DESCRIPTION_MAX),
    showSensitive: z.boolean(),
  })
  .partial()
  .strict()
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>

/** DELETE /api/admin/{email}/sessions: how many sessions of that user ended. */
export const endedSessionsSchema = z.object({ endedCount: z.number() })

/** Answer of the sign-in exchange: our session token and the stored user. */
export const sessionResponseSchema = z.object({ token: z.string(), user: userSchema })
export type SessionResponse = z.infer<typeof sessionResponseSchema>

/** Answer of a profile update; the token is given again with the new name, for the same session and expiry. */
export const profileUpdateResponseSchema = z.object({ modifiedCount: z.number(), user: userSchema, token: z.string() })
export type ProfileUpdateResponse = z.infer<typeof profileUpdateResponseSchema>

/** GET /api/admin/{email}. */
export const adminCheckSchema = z.object({ admin: z.boolean() })

/** POST /api/uploads/image (multipart field `file`): where the stored image can be fetched. */
export const uploadResponseSchema = z.object({ url: z.string() })

/** Claims of our session token (HS256), readable by the client to show who is signed in. */
export const sessionClaimsSchema = z.object({
  /** The session on the server; DELETE /api/session ends it, and every token naming it. */
  sid: z.string(),
  sub: z.string(),
  email: z.string(),
  name: z.string(),
  email_verified: z.boolean(),
  exp: z.number(),
  iat: z.number(),
})
export type SessionClaims = z.infer<typeof sessionClaimsSchema>
