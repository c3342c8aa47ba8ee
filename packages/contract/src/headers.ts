import { z } from 'zod';

/**
 * Headers every API call carries (spec section 7). Loose objects: other headers pass through
 * untouched. The client-id is resolved to a client before validation; a session id of the
 * wrong shape is treated as no session (401), so its schema only bounds its size.
 */
export const ClientHeaders = z.looseObject({ 'client-id': z.string().min(1).max(2048) });
export const SessionHeaders = ClientHeaders.extend({ 'x-session-id': z.string().max(256).optional() });
