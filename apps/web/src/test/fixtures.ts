import type { ClientData, UserData } from '@rewards/contract';
import english from '@rewards/translations/en-US.json';

// Each capability's texts live in `<area>.en-US.json` beside the core bundle (packages/translations).
const areas = import.meta.glob<Record<string, string>>('../../../../packages/translations/bundles/*.en-US.json', {
  eager: true,
  import: 'default',
});

/** The real English bundle, core and every area, so tests read what a user reads. */
export const enUS: Record<string, string> = Object.assign({}, english, ...Object.values(areas));

export function makeClient(overrides: Partial<ClientData> = {}): ClientData {
  return {
    passwordRules: {
      minLength: 8,
      maxLength: 64,
      requireUpper: true,
      requireLower: true,
      requireDigit: true,
      requireSymbol: true,
      notUsername: true,
    },
    locale: { code: 'en-US', dir: 'ltr' },
    localeList: [
      { code: 'en-US', dir: 'ltr', name: 'English' },
      { code: 'fr-FR', dir: 'ltr', name: 'Français' },
      { code: 'ar', dir: 'rtl', name: 'العربية' },
    ],
    bundleList: { 'en-US': { locale: 'en-US', properties: enUS } },
    clientBranding: {
      clientName: 'Acme Rewards',
      clientLogo: '/brand/acme/logo.svg',
      brandColor: '#1f5fd6',
      activationFields: [],
      mediaLabels: [
        { locale: 'en-US', cmText: 'Acme Points', forms: { one: 'Acme Point', other: 'Acme Points' } },
        { locale: 'fr-FR', cmText: 'Points Acme', forms: { one: 'Point Acme', other: 'Points Acme' } },
      ],
    },
    clientCountries: [],
    ssoConfig: { clientSite: { name: 'Acme', url: 'https://acme.example' }, ssoType: 'login_only', ssoLogoutType: 'login' },
    privacyNoticeVersion: 1,
    sessionIdleMinutes: 30,
    ...overrides,
  };
}

export function makeUser(overrides: Partial<UserData> = {}): UserData {
  return {
    authenticated: true,
    sessionId: 'session-1',
    userId: 'u1',
    userName: 'demo',
    firstName: 'Dana',
    lastName: 'Demo',
    accountNumber: '1000001',
    locale: { code: 'en-US', dir: 'ltr' },
    accountBalance: 12500,
    accountBalanceUnavailable: false,
    rewardsOffering: { merchandise: true, experiences: true },
    rewardsOfferingUnavailable: false,
    isInActiveHasPoints: false,
    participantFeatures: { ots: true },
    adminAsUser: false,
    privacyNotice: { hasAcknowledged: false, version: 1 },
    participantRules: ['Sales Incentive 2026', 'Service Awards'],
    ssoAuthenticated: false,
    pendingPoints: { points: 0, releases: [] },
    ...overrides,
  };
}
