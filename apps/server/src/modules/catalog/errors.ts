import { ErrorCode } from '@rewards/contract';
import { ApiError } from '../../http/api-error.ts';

/** The catalog capability's errors; every key is in the catalog.<locale>.json bundles. */
export const catalogErrors = {
  unknownType: () => new ApiError(400, ErrorCode.validation, 'error.validation', 'Unknown catalog type: merchandise or experiences'),
  unavailable: () => new ApiError(503, ErrorCode.catalogUnavailable, 'catalog.error.down', 'No catalog is configured for this offering'),
  partnerUnauthorized: () =>
    new ApiError(401, ErrorCode.partnerUnauthorized, 'catalog.error.partnerCredentials', 'Partner credentials are missing or wrong'),
  insufficientBalance: () =>
    new ApiError(409, ErrorCode.insufficientBalance, 'catalog.error.insufficientBalance', 'The balance does not cover this debit'),
  orderConflict: () =>
    new ApiError(409, ErrorCode.orderConflict, 'catalog.error.orderConflict', 'This order id was already used for a different order'),
  participantNotFound: () =>
    new ApiError(404, ErrorCode.participantNotFound, 'catalog.error.participantNotFound', 'No such participant in this program'),
  // Redeeming a punch-out link (docs/decisions/043).
  punchoutNotFound: () =>
    new ApiError(404, ErrorCode.punchoutNotFound, 'catalog.error.punchoutNotFound', 'No such punch-out link for this partner'),
  punchoutUsed: () => new ApiError(409, ErrorCode.punchoutUsed, 'catalog.error.punchoutUsed', 'This punch-out link was already used'),
  punchoutExpired: () => new ApiError(410, ErrorCode.punchoutExpired, 'catalog.error.punchoutExpired', 'This punch-out link has expired'),
  punchoutSessionEnded: () =>
    new ApiError(
      410,
      ErrorCode.punchoutSessionEnded,
      'catalog.error.punchoutSessionEnded',
      'The portal session that asked for this link has ended',
    ),
};
