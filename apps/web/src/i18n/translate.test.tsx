import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { interpolate, splitPlaceholders, translate } from './translate.ts';
import { I18nProvider, Trans, useI18n } from './I18nContext.tsx';

const properties = {
  'home.welcome': 'Welcome back, {firstName}! You have {balance} {mediaLabel}.',
  plain: 'No placeholders here',
};

describe('t(key, values)', () => {
  it('fills every placeholder with its value', () => {
    expect(translate(properties, 'home.welcome', { firstName: 'Dana', balance: '12,500', mediaLabel: 'Acme Points' })).toBe(
      'Welcome back, Dana! You have 12,500 Acme Points.',
    );
  });

  it('keeps a placeholder that has no value, and numbers become text', () => {
    expect(interpolate('{a} and {b}', { a: 1 })).toBe('1 and {b}');
  });

  it('shows a missing key as "Missing locale value (key)"', () => {
    expect(translate(properties, 'nope.key')).toBe('Missing locale value (nope.key)');
    expect(translate(undefined, 'plain')).toBe('Missing locale value (plain)');
  });

  it('does not take keys from the object prototype', () => {
    expect(translate(properties, 'toString')).toBe('Missing locale value (toString)');
  });

  it('splits a text so that a value can be an element', () => {
    expect(splitPlaceholders('You have {balance} {label}.', { balance: 42, label: 'pts' })).toEqual(['You have ', 42, ' ', 'pts', '.']);
  });
});

function Probe() {
  const { t } = useI18n();
  return (
    <>
      <p>{t('plain')}</p>
      <p>
        <Trans
          k="home.welcome"
          values={{ firstName: 'Dana', balance: <a href="/activity-history">12,500</a>, mediaLabel: 'Acme Points' }}
        />
      </p>
    </>
  );
}

describe('the i18n context', () => {
  it('renders translated text and links inside sentences', () => {
    render(
      <I18nProvider locale={{ code: 'en-US', dir: 'ltr' }} properties={properties} label={undefined}>
        <Probe />
      </I18nProvider>,
    );
    expect(screen.getByText('No placeholders here')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '12,500' })).toHaveAttribute('href', '/activity-history');
    expect(screen.getByText(/Welcome back, Dana! You have/)).toHaveTextContent('Welcome back, Dana! You have 12,500 Acme Points.');
  });
});
