import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@rewards/contract/errors';
import { ConsoleApiError } from '../api/client.ts';
import { errorText } from './error-text.ts';

const refusal = (status: number, code: number, key: string, message: string, params = {}) =>
  new ConsoleApiError(status, code, key, message, params);

describe('errorText: a refusal in the console’s own words (decision 087)', () => {
  it('fills a key’s text with the params, as the console writes numbers, dates and statuses', () => {
    const balance = refusal(409, ErrorCode.consoleInsufficientBalance, 'console.error.insufficientBalance', 'English', {
      username: 'jane',
      balance: 12500,
      debit: 20000,
    });
    expect(errorText(balance)).toBe('The balance of jane (12,500 points) does not cover a debit of 20,000 points. Nothing was posted.');
    const same = refusal(409, ErrorCode.consoleNothingToChange, 'console.error.nothingToChange', 'English', {
      username: 'jane',
      status: 'inactive',
      reason: 'status',
    });
    expect(errorText(same)).toBe('jane is inactive already. Nothing changed.');
    const held = refusal(409, ErrorCode.consoleEmailRecentlyChanged, 'console.error.emailRecentlyChanged', 'English', {
      username: 'jane',
      until: '2026-11-29T10:00:00.000Z',
    });
    expect(errorText(held)).not.toContain('2026-11-29T10');
    expect(errorText(held)).toContain('29 Nov 2026');
  });

  it('takes a variant by params.reason, and the key’s own text for a reason it has no variant for', () => {
    const header = refusal(400, ErrorCode.importRefused, 'imports.error.refused', 'English', { reason: 'header' });
    expect(errorText(header)).toMatch(/^The first line of the file must name the columns of this kind of import/);
    const other = refusal(400, ErrorCode.importRefused, 'imports.error.refused', 'English', { reason: 'somethingNew' });
    expect(errorText(other)).toBe('The file was not accepted. Nothing was imported.');
    const inUse = refusal(409, ErrorCode.catalogPartnerConflict, 'catalogs.error.partnerConflict', 'English', {
      partnerId: 'shop-1',
      catalogs: 'merchandise, experiences',
      reason: 'inUse',
    });
    expect(errorText(inUse)).toContain('The merchandise and experiences catalog uses partner shop-1');
  });

  it('says which field a validation refusal names, and never shows a key or a code', () => {
    const field = refusal(400, ErrorCode.validation, 'error.validation', 'Invalid body: requestId', { where: 'body', fields: 'requestId' });
    expect(errorText(field)).toBe('This is not accepted: requestId. Check it and try again.');
    const two = refusal(400, ErrorCode.validation, 'error.validation', 'Invalid body: reason, points', {
      where: 'body',
      fields: 'reason, points',
    });
    expect(errorText(two)).toBe('This is not accepted: Reason and Points. Check it and try again.');
    const other = refusal(400, ErrorCode.validation, 'error.validation', 'Invalid body: brandColor', {
      where: 'body',
      fields: 'brandColor',
    });
    expect(errorText(other)).toBe('This is not accepted: brandColor. Check it and try again.');
    const check = refusal(400, ErrorCode.validation, 'error.validation', 'Type at least 2 characters to search');
    expect(errorText(check)).toBe('This is not accepted: Type at least 2 characters to search');
    const bare = refusal(400, ErrorCode.validation, 'error.validation', 'The request is not valid');
    expect(errorText(bare)).toBe('Something in the form is not accepted. Check what you entered and try again.');
    const unknown = refusal(409, 99999, 'no.such.key', 'Some English from the server');
    expect(errorText(unknown)).not.toContain('English');
    expect(errorText(refusal(403, ErrorCode.forbidden, 'error.forbidden', 'Not allowed for this role'))).toBe(
      'Your role does not allow this.',
    );
    expect(errorText(refusal(500, ErrorCode.internal, 'error.internal', 'x'))).toBe(
      'Something went wrong on the server. Try again in a moment.',
    );
    expect(errorText(new TypeError('fetch failed'))).toBe('The console could not reach the server. Check the connection and try again.');
  });
});
