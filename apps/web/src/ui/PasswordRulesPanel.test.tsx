import { describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import { act, fireEvent, screen } from '@testing-library/react';
import { renderWithApp } from '../test/render.tsx';
import { PasswordRulesPanel } from './PasswordRulesPanel.tsx';

const rules = {
  minLength: 8,
  maxLength: 64,
  requireUpper: true,
  requireLower: true,
  requireDigit: true,
  requireSymbol: true,
  notUsername: true,
};

function panel(password: string) {
  return renderWithApp(<PasswordRulesPanel id="rules" rules={rules} password={password} username="dana" />);
}
/** The panel beside an input, as a form uses it. */
function Typing() {
  const [password, setPassword] = useState('');
  return (
    <>
      <input aria-label="New password" aria-describedby="rules" value={password} onChange={(e) => setPassword(e.target.value)} />
      <PasswordRulesPanel id="rules" rules={rules} password={password} username="dana" />
    </>
  );
}
const stateOf = () => Object.fromEntries(screen.getAllByRole('listitem').map((item) => [item.getAttribute('data-rule'), item.textContent]));

describe('the password rules panel', () => {
  it('describes the input it is attached to', () => {
    renderWithApp(<Typing />);
    expect(screen.getByRole('textbox', { name: 'New password' })).toHaveAccessibleDescription(
      /Your new password needs: At least 8 characters: not met/,
    );
  });

  it('lists each rule of the client, none met before anything is typed, in words', () => {
    panel('');
    expect(screen.getByText('Your new password needs:')).toBeInTheDocument();
    expect(stateOf()).toEqual({
      minLength: 'At least 8 characters: not met',
      maxLength: 'No more than 64 characters: not met',
      upper: 'An uppercase letter: not met',
      lower: 'A lowercase letter: not met',
      digit: 'A number: not met',
      symbol: 'A symbol, such as ! or #: not met',
      notUsername: 'Not your username: not met',
    });
  });

  it.each([
    ['x', ['maxLength', 'lower', 'notUsername']],
    ['X', ['maxLength', 'upper', 'notUsername']],
    ['7', ['maxLength', 'digit', 'notUsername']],
    ['#', ['maxLength', 'symbol', 'notUsername']],
    ['abcdefgh', ['minLength', 'maxLength', 'lower', 'notUsername']],
    ['Dana-2026!', ['minLength', 'maxLength', 'upper', 'lower', 'digit', 'symbol']],
    ['Garden-Path-42', ['minLength', 'maxLength', 'upper', 'lower', 'digit', 'symbol', 'notUsername']],
  ])('ticks exactly the rules "%s" meets', (password, met) => {
    panel(password);
    const ticked = screen.getAllByRole('listitem').filter((item) => item.getAttribute('data-met') === 'true');
    expect(ticked.map((item) => item.getAttribute('data-rule'))).toEqual(met);
    for (const item of ticked) expect(item).toHaveTextContent(/: met$/);
  });

  it('announces one summary once typing pauses, not a word per keystroke', () => {
    vi.useFakeTimers();
    try {
      renderWithApp(<Typing />);
      const input = screen.getByRole('textbox', { name: 'New password' });
      const live = document.querySelector('[aria-live="polite"]');
      fireEvent.change(input, { target: { value: 'G' } });
      act(() => vi.advanceTimersByTime(500));
      fireEvent.change(input, { target: { value: 'Ga' } });
      act(() => vi.advanceTimersByTime(500));
      expect(live).toHaveTextContent('');
      act(() => vi.advanceTimersByTime(1000));
      expect(live).toHaveTextContent('4 of 7 password rules met');
    } finally {
      vi.useRealTimers();
    }
  });
});
