import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { LocaleOption } from '@rewards/contract';
import { useI18n } from '../../i18n/I18nContext.tsx';
import { useAppState, useServices } from '../../state/StoreContext.tsx';
import { switchLocale } from '../../state/session.ts';
import { Spinner } from '../../ui/Spinner.tsx';
import './header.css';

const noLocales: readonly LocaleOption[] = [];

/**
 * A disclosure button with the client's languages; each is named in its own language.
 * States: focused (focus ring), open (aria-expanded), disabled (while a switch is under way).
 */
export function LanguageSelector() {
  const services = useServices();
  const { t, locale } = useI18n();
  const locales = useAppState((s) => s.client?.localeList ?? noLocales);
  const busy = useAppState((s) => s.busy.locale);
  const [open, setOpen] = useState(false);
  const listId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    // Land on the current language so arrow keys start from there.
    rootRef.current?.querySelector<HTMLElement>('[aria-current="true"]')?.focus();
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  if (locales.length < 2) return null;
  const current = locales.find((l) => l.code === locale.code);

  const choose = (option: LocaleOption) => {
    setOpen(false);
    buttonRef.current?.focus();
    if (option.code !== locale.code) void switchLocale(services, { code: option.code, dir: option.dir });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape' && open) {
      event.stopPropagation();
      setOpen(false);
      buttonRef.current?.focus();
      return;
    }
    if (!open || (event.key !== 'ArrowDown' && event.key !== 'ArrowUp' && event.key !== 'Home' && event.key !== 'End')) return;
    event.preventDefault();
    const items = [...(rootRef.current?.querySelectorAll<HTMLElement>('.lang__option') ?? [])];
    const index = items.indexOf(document.activeElement as HTMLElement);
    const next =
      event.key === 'Home'
        ? 0
        : event.key === 'End'
          ? items.length - 1
          : (index + (event.key === 'ArrowDown' ? 1 : -1) + items.length) % items.length;
    items[next]?.focus();
  };

  return (
    <div className="lang" ref={rootRef} onKeyDown={onKeyDown}>
      <button
        ref={buttonRef}
        type="button"
        className="lang__button"
        aria-expanded={open}
        aria-controls={listId}
        disabled={busy}
        aria-label={t('header.language.label', { language: current?.name ?? locale.code })}
        onClick={() => setOpen((o) => !o)}
      >
        {busy ? <Spinner size="sm" /> : <span className="lang__globe" aria-hidden="true" />}
        <span className="lang__current" lang={locale.code}>
          {current?.name ?? locale.code}
        </span>
        <span className="ui-chevron" aria-hidden="true" />
      </button>
      <ul id={listId} className="lang__list" hidden={!open}>
        {locales.map((option) => (
          <li key={option.code}>
            <button
              type="button"
              className="lang__option"
              lang={option.code}
              dir={option.dir}
              aria-current={option.code === locale.code ? 'true' : undefined}
              onClick={() => choose(option)}
            >
              {option.name}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
