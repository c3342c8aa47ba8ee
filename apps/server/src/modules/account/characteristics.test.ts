import { describe, expect, it } from 'vitest';
import type { Participant } from '../participants/tables.ts';
import { characteristicsMatch, locatorOf } from './characteristics.ts';

const pat = {
  account_number: '1000004',
  last_name: 'Müller-Lüdenscheidt',
  first_name: 'Zoë  Anne',
  email: 'Pat@Example.com',
  username: 'pat',
  date_of_birth: '1987-03-14',
} as Participant;
const fields = ['accountNumber', 'lastName'];

describe('matching activation facts', () => {
  it('matches account numbers exactly and names ignoring case, accents and spaces', () => {
    expect(characteristicsMatch(fields, { accountNumber: '1000004', lastName: 'muller-ludenscheidt' }, pat)).toBe(true);
    expect(characteristicsMatch(['firstName', 'emailAddress'], { firstName: 'zoe anne', emailAddress: 'PAT@example.COM' }, pat)).toBe(true);
    expect(characteristicsMatch(fields, { accountNumber: '01000004', lastName: 'Müller-Lüdenscheidt' }, pat)).toBe(false);
    expect(characteristicsMatch(fields, { accountNumber: '1000004', lastName: 'Muller' }, pat)).toBe(false);
  });

  it('never matches without a participant, without fields, or on a field it does not know', () => {
    expect(characteristicsMatch(fields, { accountNumber: '1000004', lastName: 'Müller-Lüdenscheidt' }, undefined)).toBe(false);
    expect(characteristicsMatch([], {}, pat)).toBe(false);
    expect(characteristicsMatch(['accountNumber', 'shoeSize'], { accountNumber: '1000004', shoeSize: '42' }, pat)).toBe(false);
  });

  it('matches a date of birth exactly, and never one the participant has not on file', () => {
    const asked = ['accountNumber', 'dateOfBirth'];
    expect(characteristicsMatch(asked, { accountNumber: '1000004', dateOfBirth: '1987-03-14' }, pat)).toBe(true);
    expect(characteristicsMatch(asked, { accountNumber: '1000004', dateOfBirth: '1987-03-15' }, pat)).toBe(false);
    expect(characteristicsMatch(asked, { accountNumber: '1000004', dateOfBirth: '14/03/1987' }, pat)).toBe(false);
    const undated = { ...pat, date_of_birth: null };
    expect(characteristicsMatch(asked, { accountNumber: '1000004', dateOfBirth: '1987-03-14' }, undated)).toBe(false);
    // The decoy a missing date is compared with is random bytes, not a date anyone can type.
    expect(characteristicsMatch(asked, { accountNumber: '1000004', dateOfBirth: '' }, undated)).toBe(false);
  });

  it('finds the participant by a unique fact only', () => {
    expect(locatorOf(fields, { accountNumber: ' 1000004 ', lastName: 'x' })).toEqual({ field: 'accountNumber', value: '1000004' });
    expect(locatorOf(['userName', 'lastName'], { userName: 'PAT', lastName: 'x' })).toEqual({ field: 'userName', value: 'pat' });
    expect(locatorOf(['emailAddress', 'lastName'], { emailAddress: 'pat@example.com', lastName: 'x' })).toBeUndefined();
  });
});
