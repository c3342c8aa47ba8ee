import {
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type FocusEvent,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
} from 'react';
import type { CatalogType } from '@rewards/contract';
import { useI18n } from '../../i18n/I18nContext.tsx';
import { useAppState, useServices } from '../../state/StoreContext.tsx';
import { openCatalogInNewTab } from './openCatalog.ts';
import { travelUrlOf } from './travel.ts';
import { useBalanceRefresh } from './useBalanceRefresh.ts';
import { BagIcon, ExternalIcon, GiftIcon, TicketIcon, TravelIcon } from './ShopArt.tsx';
import './shops.css';

const icons: Record<CatalogType, () => ReactNode> = { merchandise: BagIcon, experiences: TicketIcon };

/**
 * The header's redeem dropdown (spec section 2, Header): a disclosure button and a list of the
 * offered shops plus the client's travel link. Opens by click; Escape, an outside click or
 * tabbing away close it. Launched-as mode: the entries stay visible but do nothing
 * (aria-disabled), and a note says why. Also keeps the balance fresh (useBalanceRefresh): this
 * menu is mounted on every signed-in page.
 */
export function RedeemMenu() {
  useBalanceRefresh();
  const services = useServices();
  const { t } = useI18n();
  const user = useAppState((s) => s.user);
  const client = useAppState((s) => s.client);
  const [open, setOpen] = useState(false);
  const listId = useId();
  const hintId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);

  // The panel hangs from the button; where the button sits near a phone's edge, slide the panel
  // back inside the screen (either direction, so right-to-left needs nothing else).
  useLayoutEffect(() => {
    const panel = panelRef.current;
    if (!open || !panel) return;
    panel.style.translate = '';
    const rect = panel.getBoundingClientRect();
    const edge = 8;
    const width = document.documentElement.clientWidth;
    let dx = 0;
    if (rect.right > width - edge) dx = width - edge - rect.right;
    if (rect.left + dx < edge) dx = edge - rect.left;
    if (dx !== 0) panel.style.translate = `${dx}px 0`;
  }, [open]);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  if (!user) return null;
  const shops = (['merchandise', 'experiences'] as const).filter((type) => user.rewardsOffering[type]);
  const travelUrl = travelUrlOf(client);
  if (shops.length === 0 && !travelUrl) return null;
  const launched = user.adminAsUser;

  const items = () => [...(rootRef.current?.querySelectorAll<HTMLElement>('.redeem__item') ?? [])];

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) buttonRef.current?.focus();
  };

  const openShop = (type: CatalogType) => {
    if (launched) return;
    close(true);
    void openCatalogInNewTab(services, type);
  };

  const onTravel = (event: MouseEvent<HTMLAnchorElement>) => {
    if (launched) {
      event.preventDefault();
      return;
    }
    close(false);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!open) return;
    if (event.key === 'Escape') {
      event.stopPropagation();
      close(true);
      return;
    }
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp' && event.key !== 'Home' && event.key !== 'End') return;
    event.preventDefault();
    const list = items();
    const index = list.indexOf(document.activeElement as HTMLElement);
    const next =
      event.key === 'Home'
        ? 0
        : event.key === 'End'
          ? list.length - 1
          : index === -1
            ? event.key === 'ArrowDown'
              ? 0
              : list.length - 1
            : (index + (event.key === 'ArrowDown' ? 1 : -1) + list.length) % list.length;
    list[next]?.focus();
  };

  // Tabbing out of the menu closes it, so that it never hangs open behind the focus.
  const onBlur = (event: FocusEvent<HTMLDivElement>) => {
    if (open && event.relatedTarget && !rootRef.current?.contains(event.relatedTarget as Node)) setOpen(false);
  };

  return (
    <div className={`redeem${launched ? ' redeem--launched' : ''}`} ref={rootRef} onKeyDown={onKeyDown} onBlur={onBlur}>
      <button
        ref={buttonRef}
        type="button"
        className="redeem__button"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((o) => !o)}
      >
        <GiftIcon />
        {t('shops.menu.button')}
        <span className="ui-chevron" aria-hidden="true" />
      </button>
      <div id={listId} ref={panelRef} className="redeem__panel" hidden={!open}>
        {launched ? (
          <p id={hintId} className="redeem__hint">
            {t('shops.launchedAs')}
          </p>
        ) : null}
        <ul className="redeem__list" aria-label={t('shops.menu.label')}>
          {shops.map((type) => {
            const Icon = icons[type];
            return (
              <li key={type}>
                <button
                  type="button"
                  className="redeem__item"
                  aria-disabled={launched || undefined}
                  aria-describedby={launched ? hintId : undefined}
                  onClick={() => openShop(type)}
                >
                  <Icon />
                  <span className="redeem__label">{t(`shops.menu.${type}`)}</span>
                  <span className="ui-visually-hidden"> {t('shops.newTab')}</span>
                  <ExternalIcon />
                </button>
              </li>
            );
          })}
          {travelUrl ? (
            <li>
              <a
                className="redeem__item"
                href={launched ? undefined : travelUrl}
                role={launched ? 'link' : undefined}
                tabIndex={launched ? 0 : undefined}
                aria-disabled={launched || undefined}
                aria-describedby={launched ? hintId : undefined}
                target="_blank"
                rel="noopener noreferrer"
                onClick={onTravel}
              >
                <TravelIcon />
                <span className="redeem__label">{t('shops.menu.travel')}</span>
                <span className="ui-visually-hidden"> {t('shops.newTab')}</span>
                <ExternalIcon />
              </a>
            </li>
          ) : null}
        </ul>
      </div>
    </div>
  );
}
