import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderWithApp } from '../../test/render.tsx';
import { makeUser } from '../../test/fixtures.ts';
import HomePage from '../../app/HomePage.tsx';

describe('home: the welcome variants (spec section 2)', () => {
  it('welcomes with the balance as a link to activity history, followed by the media label', () => {
    renderWithApp(<HomePage />, { user: makeUser({ accountBalance: 12500 }) });
    const balance = screen.getByRole('link', { name: '12,500' });
    expect(balance).toHaveAttribute('href', '/activity-history');
    expect(balance.closest('p')).toHaveTextContent('Welcome back, Dana! You have 12,500 Acme Points.');
  });

  it('uses the singular form for a single point', () => {
    renderWithApp(<HomePage />, { user: makeUser({ accountBalance: 1 }) });
    expect(screen.getByRole('link', { name: '1' }).closest('p')).toHaveTextContent('You have 1 Acme Point.');
  });

  it('says the balance is unavailable when the server could not get it', () => {
    renderWithApp(<HomePage />, { user: makeUser({ accountBalanceUnavailable: true, accountBalance: 500 }) });
    expect(screen.getByText(/balance is not available right now/)).toHaveTextContent(
      'Welcome back, Dana! Your Acme Points balance is not available right now.',
    );
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });

  it('says nothing was earned yet when the balance is null', () => {
    renderWithApp(<HomePage />, { user: makeUser({ accountBalance: null }) });
    expect(screen.getByText(/haven't earned any Acme Points yet/)).toBeInTheDocument();
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });

  it.each([0, -20])('says everything is spent at %i, with a link to activity history', (balance) => {
    renderWithApp(<HomePage />, { user: makeUser({ accountBalance: balance }) });
    expect(screen.getByText(/You have used all your Acme Points/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See your activity' })).toHaveAttribute('href', '/activity-history');
  });

  it('formats the balance and picks the media label for the user locale', () => {
    const fr = { code: 'fr-FR', dir: 'ltr' } as const;
    renderWithApp(<HomePage />, {
      user: makeUser({ accountBalance: 12500, locale: fr }),
      state: {
        locale: fr,
        bundles: {
          'fr-FR': {
            'home.heading': 'Accueil',
            'home.points.heading': 'Vos points',
            'home.welcome': 'Bon retour, {firstName} ! Vous avez {balance} {mediaLabel}.',
          },
        },
      },
    });
    const balance = screen.getByRole('link', { name: /^12\s500$/ });
    expect(balance.closest('p')).toHaveTextContent(/Vous avez 12\s500 Points Acme\./);
  });

  it('has a hidden Home heading and no points section before sign-in', () => {
    renderWithApp(<HomePage />, { user: null });
    expect(screen.getByRole('heading', { level: 1, name: 'Home' })).toHaveClass('ui-visually-hidden');
    expect(screen.queryByText(/Welcome/)).not.toBeInTheDocument();
  });
});
