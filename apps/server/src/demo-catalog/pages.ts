import { fill, items, texts, type CatalogLanguage, type CatalogTexts } from './texts.ts';

export const CSS_PATH = '/demo-catalog/catalog.css';

type Offering = 'merchandise' | 'experiences';

/** Escapes text for HTML content and attribute values. */
export function esc(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

function numberIn(lang: CatalogLanguage, value: number): string {
  return new Intl.NumberFormat(lang === 'ar' ? 'ar' : lang === 'fr' ? 'fr-FR' : 'en-US').format(value);
}

function layout(lang: CatalogLanguage, title: string, body: string): string {
  const t = texts[lang];
  return `<!doctype html>
<html lang="${lang}" dir="${t.dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${esc(title)} | ${esc(t.brand)}</title>
<link rel="stylesheet" href="${CSS_PATH}">
</head>
<body>
<header class="bar"><span class="brand">${esc(t.brand)}</span></header>
<main class="page">
${body}
</main>
</body>
</html>`;
}

function backLink(t: CatalogTexts, portal: string | undefined): string {
  return portal ? `<p><a class="back" href="${esc(portal)}">${esc(t.backToPortal)}</a></p>` : '';
}

export interface Shopper {
  name: string;
  balance: number | null;
  offering: Offering;
  token: string;
  /** The catalog's proof that this page came from redeeming the link (see routes.ts). */
  visit: string;
  portal: string;
}

/** The catalog: who is shopping, their balance, and one order form per item. */
export function catalogPage(lang: CatalogLanguage, shopper: Shopper, orderIdFor: () => string): string {
  const t = texts[lang];
  const balance = shopper.balance ?? 0;
  const cards = items[shopper.offering]
    .map((item) => {
      const affordable = item.points <= balance;
      return `<li class="item">
<h3>${esc(item.name[lang])}</h3>
<p class="detail">${esc(item.detail[lang])}</p>
<p class="price">${esc(numberIn(lang, item.points))} ${esc(t.points)}</p>
<form method="post" action="/demo-catalog/${shopper.offering}/order">
<input type="hidden" name="token" value="${esc(shopper.token)}">
<input type="hidden" name="visit" value="${esc(shopper.visit)}">
<input type="hidden" name="item" value="${esc(item.sku)}">
<input type="hidden" name="orderId" value="${esc(orderIdFor())}">
<button type="submit"${affordable ? '' : ' disabled'} aria-label="${esc(`${affordable ? t.order : t.notEnough}: ${item.name[lang]}`)}">${esc(affordable ? t.order : t.notEnough)}</button>
</form>
</li>`;
    })
    .join('\n');
  const title = t.title[shopper.offering];
  return layout(
    lang,
    title,
    `<h1>${esc(title)}</h1>
<section class="who">
<p class="hello">${esc(fill(t.hello, { name: shopper.name }))}</p>
<p class="balance">${esc(t.balance)}: <strong>${esc(numberIn(lang, balance))} ${esc(t.points)}</strong></p>
</section>
<h2 class="visually-hidden">${esc(t.itemsHeading)}</h2>
<ul class="items">
${cards}
</ul>
${backLink(t, shopper.portal)}`,
  );
}

export function confirmationPage(lang: CatalogLanguage, itemName: string, orderId: string, newBalance: number, portal: string): string {
  const t = texts[lang];
  return layout(
    lang,
    t.ordered,
    `<h1>${esc(t.ordered)}</h1>
<div class="notice success" role="status">
<p>${esc(fill(t.orderedDetail, { item: itemName }))}</p>
<p>${esc(t.orderNumber)}${lang === 'fr' ? '\u00a0' : ''}: <bdi class="order-id">${esc(orderId)}</bdi></p>
<p class="balance">${esc(t.newBalance)}: <strong>${esc(numberIn(lang, newBalance))} ${esc(t.points)}</strong></p>
</div>
${backLink(t, portal)}`,
  );
}

/** A page that says what went wrong, in words, with a way back when we know the portal. */
export function messagePage(lang: CatalogLanguage, title: string, message: string, portal: string | undefined): string {
  const t = texts[lang];
  return layout(
    lang,
    title,
    `<h1>${esc(title)}</h1>\n<div class="notice" role="alert"><p>${esc(message)}</p></div>\n${backLink(t, portal)}`,
  );
}
