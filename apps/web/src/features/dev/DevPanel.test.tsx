import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithApp } from '../../test/render.tsx';
import { makeUser } from '../../test/fixtures.ts';
import DevPanel, { type DevRoute } from './DevPanel.tsx';

const routes: DevRoute[] = [
  { path: '/login', access: 'anonymous', modal: false },
  { path: '/home', access: 'signedIn', modal: false },
  { path: '/profile', access: 'signedIn', modal: true },
  { path: '/faqs', access: 'any', modal: true },
];

describe('the development navigation panel', () => {
  it('starts folded in its corner and opens to every route with its access kind', () => {
    renderWithApp(<DevPanel routes={routes} />, { user: makeUser(), path: '/home' });
    const toggle = screen.getByRole('button', { name: 'Routes' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('link', { name: '/login' })).toBeNull();

    fireEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const nav = screen.getByRole('navigation', { name: 'Development navigation' });
    expect(nav).toHaveTextContent('/login page · anonymous only');
    expect(nav).toHaveTextContent('/profile modal · signed in only');
    expect(nav).toHaveTextContent('/faqs modal · anyone');
    expect(screen.getByRole('link', { name: '/home' })).toHaveAttribute('aria-current', 'page');
  });

  it('goes to a route in one click, a modal over the current page', () => {
    renderWithApp(<DevPanel routes={routes} />, { user: makeUser(), path: '/home' });
    fireEvent.click(screen.getByRole('button', { name: 'Routes' }));
    fireEvent.click(screen.getByRole('link', { name: '/profile' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/profile');
  });

  it('folds on Escape', () => {
    renderWithApp(<DevPanel routes={routes} />, { path: '/login' });
    const toggle = screen.getByRole('button', { name: 'Routes' });
    fireEvent.click(toggle);
    fireEvent.keyDown(screen.getByRole('link', { name: '/faqs' }), { key: 'Escape' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  it('offers the pseudo-locale', () => {
    renderWithApp(<DevPanel routes={routes} />, { path: '/login' });
    fireEvent.click(screen.getByRole('button', { name: 'Routes' }));
    expect(screen.getByRole('link', { name: 'Show keys' })).toHaveAttribute('href', '/login?pseudo=1');
  });
});
