import { CONTACT_THROTTLE } from '@rewards/contract';
import type { Limit } from './service.ts';

/** How many attempts each subject may make (config.ts, decision 040). */
export interface LimitPolicy {
  /** Per account (username, account number, e-mail address) in each window. */
  perAccount: number;
  /** Per account in a day: past it the account waits out the day or an operator's unlock. */
  perAccountPerDay: number;
  /** Per client address in each window, across accounts. */
  perAddress: number;
  windowMinutes: number;
  /** Wrong on-the-spot codes per participant in their own window. */
  otsPerParticipant: number;
  otsWindowMinutes: number;
}

const DAY_MINUTES = 24 * 60;
const DAY = '#day';

/**
 * The subjects attempts are counted under. An account's subjects also have a daily twin
 * (subject + "#day"). Names say what is limited; `participants unlock` clears a participant's.
 */
export const subjects = {
  signIn: (usernameKey: string) => `sign-in:${usernameKey}`,
  activation: (field: string, value: string) => `activation:${field}:${value}`,
  forgotUsername: (email: string) => `forgot-username:${email}`,
  // Username and address together: only someone who knows both can use up an account's reset mails.
  forgotPassword: (usernameKey: string, email: string) => `forgot-password:${usernameKey}:${email}`,
  resetLink: (participantId: string) => `reset-link:${participantId}`,
  ots: (participantId: string) => `ots:${participantId}`,
  contact: (participantId: string) => `contact:${participantId}`,
  address: (action: string, address: string) => `${action}-address:${address}`,
  // The staff console (decision 046), counted under STAFF_LIMITS_SCOPE instead of a client.
  staffSignIn: (emailKey: string) => `staff-sign-in:${emailKey}`,
  staffSecondFactor: (staffId: string) => `staff-second-factor:${staffId}`,
  // Points (not attempts) a support agent adjusted in a client today (decision 048).
  agentAdjustments: (staffId: string) => `agent-adjustments:${staffId}`,
  // Activation invitations resent to a pending participant from the console (decision 048).
  activationMail: (participantId: string) => `activation-mail:${participantId}`,
};

/**
 * What the console's limits are counted under in place of a client id: staff belong to no
 * client, and no client id can be this (they are a-z, 0-9 and -).
 */
export const STAFF_LIMITS_SCOPE = '*console';

/** Every subject counting against one staff member (with the daily twins): what `staff reset` clears. */
export function staffLimitSubjects(staff: { id: string; email_key: string }): string[] {
  return [subjects.staffSignIn(staff.email_key), subjects.staffSecondFactor(staff.id)].flatMap((subject) => [subject, subject + DAY]);
}

/** Whether a limit is an account's daily ceiling. */
export const isDaily = (limit: Limit) => limit.subject.endsWith(DAY);

/** The window of an account's subject and its daily twin. */
function accountLimits(policy: LimitPolicy, subject: string): Limit[] {
  return [
    { subject, max: policy.perAccount, windowMinutes: policy.windowMinutes },
    { subject: subject + DAY, max: policy.perAccountPerDay, windowMinutes: DAY_MINUTES },
  ];
}

/** The limits of each limited action, from the policy. */
export function limitsOf(policy: LimitPolicy) {
  const account = (subject: string) => accountLimits(policy, subject);
  const address = (action: string, ip: string): Limit => ({
    subject: subjects.address(action, ip),
    max: policy.perAddress,
    windowMinutes: policy.windowMinutes,
  });
  return {
    /** Sign-in, and re-entering the current password to change it: the same account limit. */
    signIn: (usernameKey: string, ip: string) => [...account(subjects.signIn(usernameKey)), address('sign-in', ip)],
    /** Activation with no fact that finds an account (a client without one) is limited by address only. */
    activation: (locator: { field: string; value: string } | undefined, ip: string) => [
      ...(locator ? account(subjects.activation(locator.field, locator.value)) : []),
      address('activation', ip),
    ],
    forgotUsername: (email: string, ip: string) => [...account(subjects.forgotUsername(email)), address('forgot-username', ip)],
    forgotPassword: (usernameKey: string, email: string, ip: string) => [
      ...account(subjects.forgotPassword(usernameKey, email)),
      address('forgot-password', ip),
    ],
    /** A reset link's account is known only when the link is. */
    resetLink: (participantId: string | undefined, ip: string) => [
      ...(participantId ? account(subjects.resetLink(participantId)) : []),
      address('reset-link', ip),
    ],
    ots: (participantId: string): Limit[] => [
      { subject: subjects.ots(participantId), max: policy.otsPerParticipant, windowMinutes: policy.otsWindowMinutes },
    ],
    contact: (participantId: string): Limit[] => [{ subject: subjects.contact(participantId), ...CONTACT_THROTTLE }],
    /** A console password: per staff e-mail (with its daily twin) and per address. */
    staffSignIn: (emailKey: string, ip: string) => [...account(subjects.staffSignIn(emailKey)), address('staff-sign-in', ip)],
    /** Second-factor codes (TOTP, recovery codes), at sign-in and enrolment: per staff member, with the daily twin. */
    staffSecondFactor: (staffId: string) => account(subjects.staffSecondFactor(staffId)),
    /** Activation invitations to one pending participant, as the reset mails: per account, with the daily twin. */
    activationMail: (participantId: string) => account(subjects.activationMail(participantId)),
  };
}

/**
 * Every limit that counts against one participant, by what it limits (each account limit with
 * its daily twin): what `participants show` reports and `participants unlock` clears.
 */
export function participantLimits(
  policy: LimitPolicy,
  participant: { id: string; username_key: string; email: string; account_number: string | null },
) {
  const account = (subject: string) => accountLimits(policy, subject);
  return {
    signIn: account(subjects.signIn(participant.username_key)),
    codes: limitsOf(policy).ots(participant.id),
    activationByAccountNumber: participant.account_number ? account(subjects.activation('accountNumber', participant.account_number)) : [],
    activationByUsername: account(subjects.activation('userName', participant.username_key)),
    forgotPassword: account(subjects.forgotPassword(participant.username_key, participant.email.toLowerCase())),
    resetLink: account(subjects.resetLink(participant.id)),
  };
}
