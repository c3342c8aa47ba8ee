import type { MailTemplate } from './outbox.ts';

/**
 * Mail rendering: pure functions from a client's texts (its merged bundle) and the mail's
 * params to a subject, a plain-text part and an email-safe HTML part (tables, inline styles,
 * no scripts, no SVG; every text escaped). See docs/decisions/042.
 */

export interface MailBranding {
  clientName: string;
  brandColor: string;
  /** Absolute URL of the client's logo on its own origin; undefined: the name alone (wordmark). */
  logoUrl: string | undefined;
  dir: 'ltr' | 'rtl';
  locale: string;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

type Block = { kind: 'p'; key: string } | { kind: 'strong'; key: string } | { kind: 'button'; key: string; param: string };

interface TemplateShape {
  /** Params the caller must give; links among them must be absolute http(s) URLs. */
  required: readonly string[];
  blocks: readonly Block[];
}

/** The body of each mail, top to bottom; a button shows only when its link param is given. */
export const TEMPLATES: Record<MailTemplate, TemplateShape> = {
  forgotUsername: {
    required: ['usernames'],
    blocks: [
      { kind: 'p', key: 'mail.forgotUsername.intro' },
      { kind: 'strong', key: 'mail.forgotUsername.usernames' },
      { kind: 'button', key: 'mail.forgotUsername.action', param: 'link' },
      { kind: 'p', key: 'mail.ignoreNotice' },
    ],
  },
  resetPassword: {
    required: ['link', 'minutes'],
    blocks: [
      { kind: 'p', key: 'mail.resetPassword.intro' },
      { kind: 'button', key: 'mail.resetPassword.action', param: 'link' },
      { kind: 'p', key: 'mail.resetPassword.expiry' },
      { kind: 'p', key: 'mail.ignoreNotice' },
    ],
  },
  activated: {
    required: [],
    blocks: [
      { kind: 'p', key: 'mail.activated.intro' },
      { kind: 'button', key: 'mail.activated.action', param: 'link' },
      { kind: 'p', key: 'mail.activated.notYou' },
    ],
  },
  passwordChanged: {
    required: [],
    blocks: [
      { kind: 'p', key: 'mail.passwordChanged.intro' },
      { kind: 'p', key: 'mail.passwordChanged.notYou' },
      { kind: 'button', key: 'mail.passwordChanged.action', param: 'link' },
    ],
  },
  activationInvite: {
    required: ['link'],
    blocks: [
      { kind: 'p', key: 'mail.activationInvite.intro' },
      { kind: 'button', key: 'mail.activationInvite.action', param: 'link' },
    ],
  },
  emailChanged: {
    required: ['maskedEmail'],
    blocks: [
      { kind: 'p', key: 'mail.emailChanged.intro' },
      { kind: 'strong', key: 'mail.emailChanged.newAddress' },
      { kind: 'p', key: 'mail.emailChanged.notYou' },
    ],
  },
};

/** The params whose values are links (shown as buttons and as plain addresses). */
export const LINK_PARAMS = new Set(['link']);

export function escapeHtml(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;');
}

/** Fills {placeholders}; an unknown one reads as nothing rather than as a raw brace. */
export function fill(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(/\{(\w+)\}/g, (_match, name: string) => values[name] ?? '');
}

export function renderMail(
  template: MailTemplate,
  texts: Readonly<Record<string, string>>,
  params: Readonly<Record<string, string>>,
  branding: MailBranding,
): RenderedMail {
  const values = { ...params, clientName: branding.clientName };
  const t = (key: string) => fill(texts[key] ?? key, values);
  const shape = TEMPLATES[template];
  const greeting = params.name ? t('mail.greeting') : t('mail.greetingAnonymous');
  const subject = t(`mail.${template}.subject`)
    .replace(/[\r\n]+/g, ' ')
    .trim();

  const textParts: string[] = [greeting];
  const htmlParts: string[] = [paragraph(greeting)];
  for (const block of shape.blocks) {
    if (block.kind === 'button') {
      const href = params[block.param];
      if (!href) continue;
      textParts.push(`${t(block.key)}:\n${href}`);
      htmlParts.push(button(t(block.key), href, branding.brandColor));
      htmlParts.push(paragraph(t('mail.linkFallback'), 'font-size:13px;color:#4b5563;'));
      htmlParts.push(
        `<p style="margin:0 0 16px;font-size:13px;word-break:break-all;"><a href="${escapeHtml(href)}" dir="ltr" style="color:${branding.brandColor};">${escapeHtml(href)}</a></p>`,
      );
    } else {
      const line = t(block.key);
      textParts.push(line);
      htmlParts.push(block.kind === 'strong' ? paragraph(line, 'font-weight:bold;') : paragraph(line));
    }
  }
  const footer = t('mail.footer');
  const text = `${branding.clientName}\n\n${textParts.join('\n\n')}\n\n--\n${footer}\n`;
  return { subject, text, html: page(subject, htmlParts.join('\n'), footer, branding) };
}

function paragraph(text: string, style = ''): string {
  return `<p style="margin:0 0 16px;${style}">${escapeHtml(text)}</p>`;
}

function button(label: string, href: string, color: string): string {
  return `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 16px;"><tr><td style="background:${color};border-radius:6px;"><a href="${escapeHtml(href)}" style="display:inline-block;padding:12px 20px;color:#ffffff;font-weight:bold;text-decoration:none;">${escapeHtml(label)}</a></td></tr></table>`;
}

/** The mail's HTML document around a body of email-safe HTML; subject and footer are escaped here. */
export function page(subject: string, body: string, footer: string, b: MailBranding): string {
  const align = b.dir === 'rtl' ? 'right' : 'left';
  // The name beside it says who writes, so the logo is decorative (empty alt): a client that
  // blocks images (many block SVG) shows the wordmark once, not the name twice.
  const logo = b.logoUrl
    ? `<img src="${escapeHtml(b.logoUrl)}" alt="" width="40" height="40" style="display:inline-block;vertical-align:middle;border:0;margin-${b.dir === 'rtl' ? 'left' : 'right'}:12px;">`
    : '';
  return `<!DOCTYPE html>
<html lang="${escapeHtml(b.locale)}" dir="${b.dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(subject)}</title>
</head>
<body dir="${b.dir}" style="margin:0;padding:0;background:#f3f4f6;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:#f3f4f6;">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" dir="${b.dir}" style="max-width:560px;background:#ffffff;border-radius:8px;font-family:Arial,Helvetica,sans-serif;font-size:16px;line-height:1.5;color:#111827;text-align:${align};">
<tr><td style="padding:20px 24px;border-bottom:4px solid ${b.brandColor};text-align:${align};">${logo}<span style="font-size:20px;font-weight:bold;color:${b.brandColor};vertical-align:middle;">${escapeHtml(b.clientName)}</span></td></tr>
<tr><td style="padding:24px;text-align:${align};">
${body}
</td></tr>
<tr><td style="padding:16px 24px;border-top:1px solid #e5e7eb;font-size:12px;color:#6b7280;text-align:${align};">${escapeHtml(footer)}</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
}

/** Every http(s) address in a text, in order, once each (the outbox listing's links). */
export function linksIn(text: string): string[] {
  return [...new Set(text.match(/https?:\/\/[^\s<>"]+/g) ?? [])];
}
