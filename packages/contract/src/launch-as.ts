import { z } from 'zod';

/** A launch token: 32 random bytes in base64url (43 characters); anything longer is bad input. */
export const LAUNCH_TOKEN_MAX_LENGTH = 128;

/** POST launchAs (spec section 7): the token of a /launch-as link. Replies user data, like login. */
export const LaunchAsRequest = z.object({
  token: z.string().trim().min(1).max(LAUNCH_TOKEN_MAX_LENGTH),
});
export type LaunchAsRequest = z.infer<typeof LaunchAsRequest>;

/** The web page of a launch link; the token travels in its query string as `token`. */
export const LAUNCH_AS_PAGE = '/launch-as';
