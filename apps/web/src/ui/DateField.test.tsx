import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Locale } from '@rewards/contract';
import { useI18n } from '../i18n/I18nContext.tsx';
import { renderWithApp } from '../test/render.tsx';
import { enUS } from '../test/fixtures.ts';
import { DateField, type DateProblem } from './DateField.tsx';
import { localeDates } from './date-parts.ts';

// The real bundles of each language, core and areas merged as the server serves them.
const files = import.meta.glob<Record<string, string>>('../../../../packages/translations/bundles/*.json', {
  eager: true,
  import: 'default',
});
const bundleOf = (code: string) =>
  Object.assign(
    {},
    ...Object.entries(files)
      .filter(([path]) => path.endsWith(`/${code}.json`) || path.endsWith(`.${code}.json`))
      .map(([, texts]) => texts),
  ) as Record<string, string>;
const LOCALES: Record<string, Locale> = {
  'en-US': { code: 'en-US', dir: 'ltr' },
  'fr-FR': { code: 'fr-FR', dir: 'ltr' },
  ar: { code: 'ar', dir: 'rtl' },
};

/** A form's date of birth: the value it holds is shown, so a test sees what the form would send. */
function Form({
  initial = '',
  min,
  max,
  onChange,
}: {
  initial?: string;
  min?: string;
  max?: string;
  onChange?: (value: string, problem: DateProblem | undefined) => void;
}) {
  const { t } = useI18n();
  const [value, setValue] = useState(initial);
  return (
    <>
      <DateField
        id="birth"
        label={t('account.field.dateOfBirth')}
        value={value}
        min={min}
        max={max}
        onChange={(next, problem) => {
          setValue(next);
          onChange?.(next, problem);
        }}
      />
      <output data-testid="value">{value}</output>
      <button type="button" onClick={() => setValue('')}>
        Start again
      </button>
    </>
  );
}

function open(code: 'en-US' | 'fr-FR' | 'ar', props: Parameters<typeof Form>[0] = {}) {
  const locale = LOCALES[code] as Locale;
  renderWithApp(<Form {...props} />, { state: { locale, bundles: { [code]: code === 'en-US' ? enUS : bundleOf(code) } } });
  const group = within(screen.getByRole('group'));
  return { user: userEvent.setup(), group, value: () => screen.getByTestId('value').textContent };
}

/** The part labels in the order they come in the page (the reading order, whatever the direction). */
const partLabels = (group: ReturnType<typeof within>) =>
  group.getAllByText(/./, { selector: 'label' }).map((label: HTMLElement) => label.textContent);

describe('a date field in the language of the page', () => {
  it('an American participant fills in month, day and year, in that order, and the form holds an ISO date', async () => {
    const { user, group, value } = open('en-US');
    expect(partLabels(group)).toEqual(['Month', 'Day', 'Year']);
    expect(
      within(group.getByLabelText('Month'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toContain('March');
    await user.selectOptions(group.getByLabelText('Month'), 'March');
    await user.type(group.getByLabelText('Day'), '9');
    await user.type(group.getByLabelText('Year'), '1987');
    expect(value()).toBe('1987-03-09');
  });

  it('a French participant types a day, picks « mars » and types the year, from the keyboard alone', async () => {
    const { user, group, value } = open('fr-FR');
    expect(partLabels(group)).toEqual(['Jour', 'Mois', 'Année']);
    await user.tab();
    expect(group.getByLabelText('Jour')).toHaveFocus();
    await user.keyboard('9');
    await user.tab();
    expect(group.getByLabelText('Mois')).toHaveFocus();
    await user.selectOptions(group.getByLabelText('Mois'), 'mars');
    await user.tab();
    await user.keyboard('1987');
    expect(value()).toBe('1987-03-09');
    expect(screen.queryByText(/Day|Month|Year|Enter/)).not.toBeInTheDocument();
  });

  it('an Arabic participant sees the month names in Arabic, day first, and no English word', async () => {
    const { group } = open('ar');
    expect(partLabels(group)).toEqual(['اليوم', 'الشهر', 'السنة']);
    const months = within(group.getByLabelText('الشهر'))
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(months).toEqual([
      '',
      'يناير',
      'فبراير',
      'مارس',
      'أبريل',
      'مايو',
      'يونيو',
      'يوليو',
      'أغسطس',
      'سبتمبر',
      'أكتوبر',
      'نوفمبر',
      'ديسمبر',
    ]);
    expect(screen.getByRole('group', { name: 'تاريخ الميلاد' }).textContent).not.toMatch(/[A-Za-z]/);
  });

  it('an Arabic participant may type Arabic-Indic digits; the field writes digits as the locale does', async () => {
    const { user, group, value } = open('ar');
    await user.type(group.getByLabelText('اليوم'), '١٥');
    await user.selectOptions(group.getByLabelText('الشهر'), 'مارس');
    await user.type(group.getByLabelText('السنة'), '1990');
    expect(value()).toBe('1990-03-15');
    const { digits } = localeDates('ar');
    expect(group.getByLabelText('اليوم')).toHaveValue(`${digits[1]}${digits[5]}`);
    expect(group.getByLabelText('السنة')).toHaveValue(['1', '9', '9', '0'].map((d) => digits[Number(d)]).join(''));
  });

  it('31 February is no date: the participant is told which days the month has', async () => {
    const { user, group, value } = open('en-US');
    await user.selectOptions(group.getByLabelText('Month'), 'February');
    await user.type(group.getByLabelText('Day'), '31');
    await user.type(group.getByLabelText('Year'), '2023');
    expect(value()).toBe('');
    expect(screen.getByText('Enter a day from 1 to 28.')).toBeInTheDocument();
    expect(group.getByLabelText('Day')).toHaveAttribute('aria-invalid', 'true');
    expect(group.getByLabelText('Day')).toHaveAccessibleDescription('Enter a day from 1 to 28.');
    expect(group.getByLabelText('Year')).not.toHaveAttribute('aria-invalid');
    await user.clear(group.getByLabelText('Year'));
    await user.type(group.getByLabelText('Year'), '2024');
    expect(screen.getByText('Enter a day from 1 to 29.')).toBeInTheDocument();
    await user.clear(group.getByLabelText('Day'));
    await user.type(group.getByLabelText('Day'), '29');
    expect(value()).toBe('2024-02-29');
    expect(screen.queryByText(/Enter a day/)).not.toBeInTheDocument();
  });

  it('says nothing while the participant types, and what is missing once they leave the field half filled', async () => {
    const onChange = vi.fn();
    const { user, group, value } = open('fr-FR', { onChange });
    await user.type(group.getByLabelText('Jour'), '12');
    expect(screen.queryByText(/Saisissez/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Start again' }));
    expect(screen.getByText('Saisissez un jour, un mois et une année.')).toBeInTheDocument();
    expect(group.getByLabelText('Mois')).toHaveAttribute('aria-invalid', 'true');
    expect(group.getByLabelText('Jour')).not.toHaveAttribute('aria-invalid');
    expect(value()).toBe('');
    expect(onChange).toHaveBeenLastCalledWith('', { kind: 'incomplete' });
  });

  it('asks for the year in full rather than guessing the century', async () => {
    const { user, group, value } = open('en-US');
    await user.selectOptions(group.getByLabelText('Month'), 'July');
    await user.type(group.getByLabelText('Day'), '4');
    await user.type(group.getByLabelText('Year'), '87');
    await user.tab();
    expect(value()).toBe('');
    expect(screen.getByText('Enter the year in full, with 4 digits.')).toBeInTheDocument();
  });

  it('keeps to its first and last dates, naming the limit as the page writes dates', async () => {
    const { user, group, value } = open('fr-FR', { max: '2026-03-10' });
    await user.type(group.getByLabelText('Jour'), '11');
    await user.selectOptions(group.getByLabelText('Mois'), 'mars');
    await user.type(group.getByLabelText('Année'), '2026');
    expect(value()).toBe('');
    expect(screen.getByText('Saisissez une date au plus tard le 10 mars 2026.')).toBeInTheDocument();
  });

  it('shows a date it is given, and empties every part when the form clears it', async () => {
    const { user, group, value } = open('en-US', { initial: '2001-12-24' });
    expect(group.getByLabelText('Day')).toHaveValue('24');
    expect(group.getByLabelText('Month')).toHaveDisplayValue('December');
    expect(group.getByLabelText('Year')).toHaveValue('2001');
    await user.click(screen.getByRole('button', { name: 'Start again' }));
    expect(value()).toBe('');
    for (const part of ['Day', 'Year']) expect(group.getByLabelText(part)).toHaveValue('');
    expect(group.getByLabelText('Month')).toHaveValue('');
    expect(screen.queryByText(/Enter/)).not.toBeInTheDocument();
  });
});
