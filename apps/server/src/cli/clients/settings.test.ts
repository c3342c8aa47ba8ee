import { ACTIVATION_FIELDS } from '@rewards/contract';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { localeFromFileName, placeholders, readBundleFile } from './bundle-file.ts';
import { readLogo } from './logo.ts';
import {
  defaultPortalUrl,
  OriginHost,
  parseActivationFields,
  parseFlag,
  parseLocale,
  parseMediaLabel,
  parsePasswordRules,
  PortalUrl,
} from './settings.ts';

const dir = mkdtempSync(join(tmpdir(), 'rewards-settings-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, content: string | Buffer) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

describe('client settings from flags', () => {
  it('reduces any way of writing an origin to the host name the portal looks up', () => {
    const host = (value: string) => parseFlag('--origin', OriginHost, value);
    expect(host('https://Rewards.Example.com')).toBe('rewards.example.com');
    expect(host('127.0.0.2:3000')).toBe('127.0.0.2');
    expect(host('http://[::1]:3000/')).toBe('[::1]');
    expect(() => host('https://x.example/path')).toThrow('--origin: "https://x.example/path" is not an origin');
    expect(() => host('ftp://x.example')).toThrow('is not an origin');
  });

  it('keeps a portal address as its origin, and refuses one that is not an http(s) origin (decision 041)', () => {
    const portal = (value: string) => parseFlag('--portal-url', PortalUrl, value);
    expect(portal('HTTPS://Rewards.Example.com/')).toBe('https://rewards.example.com');
    expect(portal('https://rewards.example.com:443')).toBe('https://rewards.example.com');
    expect(portal('http://[::1]:3000')).toBe('http://[::1]:3000');
    for (const value of [
      'ftp://x.example',
      'javascript://x.example',
      'https://x.example/portal',
      'https://x.example?a=1',
      'https://u:p@x.example',
      'x.example',
      'http://x.example:99999',
      '',
    ]) {
      expect(() => portal(value), value).toThrow(/^--portal-url: /);
    }
  });

  it('defaults a portal address to the first public host over https, else a local name on the default port', () => {
    expect(defaultPortalUrl(['rewards.initech.example'])).toBe('https://rewards.initech.example');
    expect(defaultPortalUrl(['localhost', '10.0.0.9', 'b.example', 'a.example'])).toBe('https://a.example');
    expect(defaultPortalUrl(['203.0.113.5', 'localhost'])).toBe('https://203.0.113.5');
    expect(defaultPortalUrl(['localhost', '127.0.0.1', '[::1]'])).toBe('http://localhost:3000');
    expect(defaultPortalUrl(['127.0.0.2', 'nimbus.localhost'])).toBe('http://nimbus.localhost:3000');
    expect(defaultPortalUrl(['127.0.0.2'])).toBe('http://127.0.0.2:3000');
  });

  it("fills a locale's direction and own name from Intl, and canonicalises its code", () => {
    expect(parseLocale('--locale', 'ar')).toEqual({ code: 'ar', dir: 'rtl', name: 'العربية' });
    expect(parseLocale('--locale', 'fr_fr')).toEqual({ code: 'fr-FR', dir: 'ltr', name: 'Français' });
    expect(parseLocale('--locale', 'en-GB:ltr:English (UK)')).toEqual({ code: 'en-GB', dir: 'ltr', name: 'English (UK)' });
    expect(() => parseLocale('--locale', 'fr-FR:sideways')).toThrow('--locale');
    expect(() => parseLocale('--locale', 'not a locale')).toThrow('--locale');
  });

  it('takes only the plural forms a locale has, and requires other', () => {
    expect(parseMediaLabel('--media-label', 'ar:zero=a;one=b;two=c;few=d;many=e;other=f').forms).toEqual({
      zero: 'a',
      one: 'b',
      two: 'c',
      few: 'd',
      many: 'e',
      other: 'f',
    });
    expect(() => parseMediaLabel('--media-label', 'en-US:one=star')).toThrow('the form "other" is required for en-US');
    expect(() => parseMediaLabel('--media-label', 'ja:one=x;other=y')).toThrow('"one" is not a plural form of ja (use other)');
  });

  it("takes one text for every form (issue 20: the spec's media label is one text per locale)", () => {
    expect(parseMediaLabel('--media-label', 'en-US:Zeta Stars')).toEqual({ locale: 'en-US', forms: { other: 'Zeta Stars' } });
    expect(parseMediaLabel('--media-label', 'ar: نجوم ')).toEqual({ locale: 'ar', forms: { other: 'نجوم' } });
    expect(() => parseMediaLabel('--media-label', 'en-US:  ')).toThrow('--media-label: the label must not be empty');
    expect(() => parseMediaLabel('--media-label', `en-US:${'x'.repeat(61)}`)).toThrow('at most 60 characters');
  });

  it("reads password rules as the whole set, within the API's limits", () => {
    expect(parsePasswordRules('--password-rules', 'min=10,max=128,upper,symbol')).toEqual({
      minLength: 10,
      maxLength: 128,
      requireUpper: true,
      requireLower: false,
      requireDigit: false,
      requireSymbol: true,
      notUsername: false,
    });
    expect(() => parsePasswordRules('--password-rules', 'min=20,max=10')).toThrow('max must not be below min');
    expect(() => parsePasswordRules('--password-rules', 'min=8,emoji')).toThrow('unknown rule "emoji"');
  });

  it('needs an activation field that finds the account', () => {
    expect(parseActivationFields('--activation-fields', 'userName,firstName')).toEqual(['userName', 'firstName']);
    expect(parseActivationFields('--activation-fields', 'none')).toEqual([]);
    expect(() => parseActivationFields('--activation-fields', 'lastName')).toThrow('must include accountNumber or userName');
  });

  it('knows exactly the fields of the contract, the date of birth among them', () => {
    expect(parseActivationFields('--activation-fields', 'accountNumber,dateOfBirth')).toEqual(['accountNumber', 'dateOfBirth']);
    expect(parseActivationFields('--activation-fields', ACTIVATION_FIELDS.join(','))).toEqual([...ACTIVATION_FIELDS]);
    expect(() => parseActivationFields('--activation-fields', 'accountNumber,postalCode')).toThrow(
      'unknown field "postalCode" (use accountNumber, userName, lastName, firstName, emailAddress, dateOfBirth, or none)',
    );
  });
});

describe('logo files', () => {
  it('accepts a plain SVG and refuses script, a wrong extension or a PNG that is not one', () => {
    expect(
      readLogo(file('ok.svg', '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"/></svg>\n')),
    ).toMatchObject({ type: 'image/svg+xml' });
    const svg = (body: string) => `<svg xmlns="http://www.w3.org/2000/svg">${body}</svg>`;
    expect(() => readLogo(file('bad.svg', svg('<script>alert(1)</script>')))).toThrow('was refused: <script> (scripts are not allowed)');
    expect(() => readLogo(file('link.svg', svg('<a href="javascript:alert(1)"><text>x</text></a>')))).toThrow(
      'was refused: <a> (links are not allowed)',
    );
    expect(() => readLogo(file('logo.gif', 'GIF89a'))).toThrow('must be an .svg or .png file');
    expect(() => readLogo(file('html.svg', '<html><svg/></html>'))).toThrow('is not an SVG image');
    expect(() => readLogo(file('big.png', Buffer.alloc(300 * 1024)))).toThrow('a logo must be 1 byte to 256 KB');
    expect(() => readLogo(join(dir, 'absent.png'))).toThrow('cannot read');
  });
});

describe('translation bundle files', () => {
  it('reads a .properties file with escapes, continuation lines, both separators and comments', () => {
    const path = file(
      'messages_fr_FR.properties',
      [
        '# a comment',
        '! another',
        'a.b = caf\\u00e9',
        'c.d:deux points',
        'e.f   espace',
        'g.h = une \\',
        '      suite',
        'i.j = =égal et \\: échappé',
        '',
      ].join('\r\n'),
    );
    expect(readBundleFile(path)).toEqual({
      'a.b': 'café',
      'c.d': 'deux points',
      'e.f': 'espace',
      'g.h': 'une suite',
      'i.j': '=égal et : échappé',
    });
    expect(localeFromFileName(path)).toBe('fr_FR');
  });

  it('flattens nested JSON with dots and refuses what is not text', () => {
    expect(
      readBundleFile(file('ar.json', JSON.stringify({ login: { heading: 'دخول', form: { submit: 'ادخل' } }, 'top.level': 'x' }))),
    ).toEqual({
      'login.heading': 'دخول',
      'login.form.submit': 'ادخل',
      'top.level': 'x',
    });
    expect(() => readBundleFile(file('n.json', JSON.stringify({ count: 3 })))).toThrow('the value of count must be a text');
    expect(() => readBundleFile(file('d.json', '{"a.b": "x", "a": {"b": "y"}}'))).toThrow('the key a.b is given twice');
    expect(() => readBundleFile(file('bad.json', '{'))).toThrow('is not valid JSON');
    expect(() => readBundleFile(file('k.json', JSON.stringify({ 'has space': 'x' })))).toThrow('is not a translation key');
    expect(localeFromFileName('bundle.json')).toBeUndefined();
    expect(localeFromFileName('account.en-US.json')).toBe('en-US');
  });

  it('finds placeholders once each, in order', () => {
    expect(placeholders('{b} and {a} and {b}')).toEqual(['a', 'b']);
  });
});
