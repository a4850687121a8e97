// The rate limits of the way in (SPEC §15), each its own bucket name space. Numbers: generous
// for a person who mistypes, tight for a script; the reasoning is in docs/ARCHITECTURE.md.
import { rateLimit } from '../../kit/rate-limit.ts'

const MINUTE = 60_000
const HOUR = 60 * MINUTE

/** Failed log-ins against one e-mail: guessing one account's password. */
export const LOGIN_FAILURES_PER_EMAIL = rateLimit('login-email', 10, 15 * MINUTE)
/** Failed log-ins from one IP, whatever the e-mails: spraying passwords over many accounts. */
export const LOGIN_FAILURES_PER_IP = rateLimit('login-ip', 50, 15 * MINUTE)
/** Sign-ups from one IP (each costs a password hash and creates an account). */
export const SIGNUPS_PER_IP = rateLimit('signup-ip', 10, HOUR)
/** Password sets and changes per user: each checks the current password. */
export const PASSWORD_CHANGES_PER_USER = rateLimit('password-user', 10, 15 * MINUTE)
/** Log-in links mailed to one address: nobody's inbox gets flooded. */
export const LOGIN_LINKS_PER_EMAIL = rateLimit('login-link-email', 3, 15 * MINUTE)
/** Log-in link requests from one IP, whatever the e-mails. */
export const LOGIN_LINKS_PER_IP = rateLimit('login-link-ip', 20, HOUR)
/** Password-reset mails to one address: the same budget as log-in links, its own bucket. */
export const RESET_LINKS_PER_EMAIL = rateLimit('reset-link-email', 3, 15 * MINUTE)
/** Password-reset requests from one IP, whatever the e-mails. */
export const RESET_LINKS_PER_IP = rateLimit('reset-link-ip', 20, HOUR)
