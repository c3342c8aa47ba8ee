import { ErrorCode } from '@rewards/contract';
import { ApiError } from '../../http/api-error.ts';

/** The refusals of a redeem, each with its own code and translation key (ots.<locale>.json). */
export const otsErrors = {
  unknownCode: () => new ApiError(404, ErrorCode.otsUnknownCode, 'ots.error.notFound', 'No such code'),
  used: () => new ApiError(409, ErrorCode.otsCodeUsed, 'ots.error.used', 'This code has already been redeemed'),
  expired: () => new ApiError(410, ErrorCode.otsCodeExpired, 'ots.error.expired', 'This code has expired'),
  void: () => new ApiError(410, ErrorCode.otsCodeVoid, 'ots.error.void', 'This code has been withdrawn'),
  notEnabled: () =>
    new ApiError(403, ErrorCode.otsNotEnabled, 'ots.error.notEnabled', 'On-the-spot codes are not available to this participant'),
  throttled: () => new ApiError(429, ErrorCode.otsThrottled, 'ots.error.throttled', 'Too many codes that could not be redeemed'),
};

/** The refusals of code batches (docs/decisions/063) beyond a bad value (400). */
export const codesErrors = {
  batchNameTaken: (batch: string, clientId: string) =>
    new ApiError(
      409,
      ErrorCode.codesBatchNameTaken,
      'codes.error.batchNameTaken',
      `Batch "${batch}" exists already in ${clientId}; name the new print run differently`,
    ),
};
