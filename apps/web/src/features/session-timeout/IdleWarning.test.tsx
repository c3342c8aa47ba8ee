import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeClient, makeUser } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import { createSessionActivity } from './activity.ts';
import { IdleWarning } from './IdleWarning.tsx';

const MINUTE = 60_000;
const start = new Date('2026-11-22T08:00:00Z');

/** The portal signed in as Dana, idle time 30 minutes, the API answering keep-alive and logout. */
function setup() {
  const activity = createSessionActivity(null);
  const onTimedOut = vi.fn();
  const user = makeUser();
  const view = renderWithApp(<IdleWarning onTimedOut={onTimedOut} activity={activity} />, {
    user,
    client: makeClient({ sessionIdleMinutes: 30 }),
    path: '/home',
    request: (async (method: string, path: string) => {
      // What the real API client does on a successful guarded call.
      if (path !== '/logout') activity.record({ at: Date.now(), path, sessionId: user.sessionId });
      if (method === 'GET' && path === '/user') return { ...user, accountBalance: 12600 };
      return undefined;
    }) as never,
  });
  return { ...view, activity, onTimedOut };
}

const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));
/** Second by second, as a browser would run the countdown's timers. */
const tick = (seconds: number) => {
  for (let i = 0; i < seconds; i++) advance(1000);
};
/** Lets the fake API's promises settle. */
const settle = () => act(async () => vi.advanceTimersByTimeAsync(0));

describe('the idle warning', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(start);
  });
  afterEach(() => vi.useRealTimers());

  it('stays out of the way while the session is in use', () => {
    const { activity } = setup();
    advance(20 * MINUTE);
    act(() => activity.record({ at: Date.now(), path: '/user/program-names', sessionId: 'session-1' }));
    advance(20 * MINUTE);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('appears two minutes before the end, takes focus and counts down', () => {
    setup();
    advance(27 * MINUTE - 1000);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    advance(1000);

    const dialog = screen.getByRole('alertdialog', { name: 'Your session is about to end' });
    expect(dialog).toHaveAccessibleDescription(/we will sign you out unless you choose to stay signed in\. 2:00/);
    expect(screen.getByRole('button', { name: 'Stay signed in' })).toHaveFocus();
    expect(screen.getByRole('timer')).toHaveTextContent('2:00');

    advance(1000);
    expect(screen.getByRole('timer')).toHaveTextContent('1:59');
    tick(44);
    expect(screen.getByRole('timer')).toHaveTextContent('1:15');
  });

  it('announces the time left only now and then, not every second', () => {
    setup();
    advance(27 * MINUTE);
    const live = document.querySelector('[aria-live="polite"]');
    expect(live).toHaveTextContent('');
    advance(59_000);
    expect(live).toHaveTextContent('');
    advance(1000);
    expect(live).toHaveTextContent('Your session ends in 1 minute.');
    advance(29_000);
    expect(live).toHaveTextContent('Your session ends in 1 minute.');
    advance(1000);
    expect(live).toHaveTextContent('Your session ends in 30 seconds.');
  });

  it('keeps the session on "Stay signed in": one GET user, and the countdown starts over', async () => {
    const { request, store, onTimedOut } = setup();
    advance(28 * MINUTE);
    fireEvent.click(screen.getByRole('button', { name: 'Stay signed in' }));
    await settle();

    expect(request).toHaveBeenCalledWith('GET', '/user');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(store.getState().user?.accountBalance).toBe(12600);

    // The next warning comes 27 minutes after the keep-alive, not after the sign-in.
    advance(26 * MINUTE);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    advance(MINUTE);
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
    expect(onTimedOut).not.toHaveBeenCalled();
  });

  it('makes the page behind inert while it shows, and gives focus back afterwards', async () => {
    const { container } = setup();
    const behind = document.createElement('button');
    behind.textContent = 'Something on the page';
    // A sibling of the dialog, as the app's page is.
    container.insertBefore(behind, container.firstChild);
    behind.focus();

    advance(27 * MINUTE);
    expect(behind.inert).toBe(true);
    expect(behind).not.toHaveFocus();
    fireEvent.click(screen.getByRole('button', { name: 'Stay signed in' }));
    await settle();
    expect(behind.inert).toBe(false);
    expect(behind).toHaveFocus();
    behind.remove();
  });

  it('treats Escape as "I am still here"', async () => {
    const { request } = setup();
    advance(27 * MINUTE);
    fireEvent.keyDown(screen.getByRole('alertdialog'), { key: 'Escape' });
    await settle();
    expect(request).toHaveBeenCalledWith('GET', '/user');
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('ends the session when ignored: signs out on the server, then takes the timeout path', async () => {
    const { request, onTimedOut } = setup();
    advance(29 * MINUTE - 1);
    expect(onTimedOut).not.toHaveBeenCalled();
    advance(1);
    await settle();
    expect(request).toHaveBeenCalledWith('GET', '/logout', { noContent: true, ignoreSessionTimeout: true });
    expect(onTimedOut).toHaveBeenCalledOnce();
  });

  it('ends at once when the tab wakes up after the end', async () => {
    const { onTimedOut } = setup();
    // A sleeping laptop: the clock jumps, the timers have not run.
    vi.setSystemTime(start.getTime() + 45 * MINUTE);
    act(() => document.dispatchEvent(new Event('visibilitychange')));
    await settle();
    expect(onTimedOut).toHaveBeenCalledOnce();
  });

  it('signs out on "Sign out" and goes to the login page', async () => {
    const { request, onTimedOut, store } = setup();
    advance(27 * MINUTE);
    fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    await settle();
    expect(request).toHaveBeenCalledWith('GET', '/logout', { noContent: true, ignoreSessionTimeout: true });
    expect(store.getState().user).toBeNull();
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
    expect(onTimedOut).not.toHaveBeenCalled();
  });

  it('counts activity of another tab with the same session', () => {
    const { activity } = setup();
    advance(27 * MINUTE);
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
    // What a message from the other tab's tracker does.
    act(() => activity.record({ at: Date.now(), path: '/user', sessionId: 'session-1' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('watches nobody when no one is signed in', () => {
    const onTimedOut = vi.fn();
    renderWithApp(<IdleWarning onTimedOut={onTimedOut} activity={createSessionActivity(null)} />, { path: '/login' });
    advance(60 * MINUTE);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(onTimedOut).not.toHaveBeenCalled();
  });
});
