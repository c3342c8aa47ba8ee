import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { I18nProvider, Trans, useI18n } from './I18nContext.tsx';
import { pseudoTranslate, PSEUDO_LOCALE_FLAG, readPseudoLocale } from './pseudo.ts';

const properties = {
  'home.heading': 'Home',
  'home.welcome': 'Welcome back! You have {balance} {mediaLabel}.',
};

describe('the pseudo-locale', () => {
  it('shows every text as its key, with the values of its placeholders', () => {
    expect(pseudoTranslate(properties, 'home.heading')).toBe('[[home.heading]]');
    expect(pseudoTranslate(properties, 'home.welcome', { balance: '12,500', mediaLabel: 'Acme Points' })).toBe(
      '[[home.welcome 12,500 Acme Points]]',
    );
    expect(pseudoTranslate(properties, 'not.in.bundle')).toBe('[[not.in.bundle]]');
  });

  it('is turned on by ?pseudo=1 for the rest of the tab, and off by ?pseudo=0', () => {
    expect(readPseudoLocale('', sessionStorage)).toBe(false);
    expect(readPseudoLocale('?pseudo=1', sessionStorage)).toBe(true);
    expect(sessionStorage.getItem(PSEUDO_LOCALE_FLAG)).toBe('1');
    expect(readPseudoLocale('', sessionStorage)).toBe(true);
    expect(readPseudoLocale('?pseudo=0', sessionStorage)).toBe(false);
    expect(readPseudoLocale('', sessionStorage)).toBe(false);
  });

  it('changes t() and keeps an element inside a sentence (Trans)', () => {
    function Screen() {
      const { t } = useI18n();
      return (
        <main>
          <h1>{t('home.heading')}</h1>
          <p>
            <Trans k="home.welcome" values={{ balance: <a href="/activity-history">12,500</a>, mediaLabel: 'Acme Points' }} />
          </p>
        </main>
      );
    }
    render(
      <I18nProvider locale={{ code: 'en-US', dir: 'ltr' }} properties={properties} label={undefined} pseudo>
        <Screen />
      </I18nProvider>,
    );
    expect(screen.getByRole('heading')).toHaveTextContent('[[home.heading]]');
    expect(screen.getByRole('paragraph')).toHaveTextContent('[[home.welcome 12,500 Acme Points]]');
    expect(screen.getByRole('link', { name: '12,500' })).toHaveAttribute('href', '/activity-history');
  });

  it('is off unless asked for', () => {
    function Screen() {
      return <h1>{useI18n().t('home.heading')}</h1>;
    }
    render(
      <I18nProvider locale={{ code: 'en-US', dir: 'ltr' }} properties={properties} label={undefined}>
        <Screen />
      </I18nProvider>,
    );
    expect(screen.getByRole('heading')).toHaveTextContent(/^Home$/);
  });
});
