import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderWithApp } from '../../test/render.tsx';
import { makeClient, makeUser } from '../../test/fixtures.ts';
import { Footer } from './Footer.tsx';

const linkNames = () =>
  within(screen.getByRole('navigation', { name: 'Site links' }))
    .getAllByRole('link')
    .map((link) => link.textContent);

describe('footer visibility rules (spec section 2)', () => {
  it('shows only the privacy policy to an anonymous visitor', () => {
    renderWithApp(<Footer />, { user: null });
    expect(linkNames()).toEqual(['Privacy policy']);
    expect(screen.getByRole('link', { name: 'Privacy policy' })).toHaveAttribute('href', '/privacy-shield');
  });

  it('shows rules, contact, FAQs, privacy policy and notice to a signed-in user with rules', () => {
    renderWithApp(<Footer />, { user: makeUser() });
    expect(linkNames()).toEqual(['Rules', 'Contact us', 'FAQs', 'Privacy policy', 'Privacy notice']);
    expect(screen.getByRole('link', { name: 'Rules' })).toHaveAttribute('href', '/rules');
    expect(screen.getByRole('link', { name: 'Privacy notice' })).toHaveAttribute('href', '/privacy-notice');
  });

  it('hides Rules when the user has no participant rules', () => {
    renderWithApp(<Footer />, { user: makeUser({ participantRules: [] }) });
    expect(linkNames()).toEqual(['Contact us', 'FAQs', 'Privacy policy', 'Privacy notice']);
  });

  it('hides the privacy notice when its version is 0', () => {
    renderWithApp(<Footer />, {
      user: makeUser({ privacyNotice: { hasAcknowledged: false, version: 0 } }),
      client: makeClient({ privacyNoticeVersion: 0 }),
    });
    expect(linkNames()).toEqual(['Rules', 'Contact us', 'FAQs', 'Privacy policy']);
  });

  it('has a copyright line with the current year and the client name', () => {
    renderWithApp(<Footer />);
    expect(screen.getByText(`© ${new Date().getFullYear()} Acme Rewards. All rights reserved.`)).toBeInTheDocument();
  });
});
