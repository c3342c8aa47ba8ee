/**
 * Every key the console's server data is cached under, a factory per feature (TanStack Query's
 * key factories): a read and the writes that make it stale name the same function, never an array
 * written twice. A key that begins with another is made stale with it (prefix matching), so a
 * feature's narrower keys extend its wider ones.
 */
export const queryKeys = {
  me: () => ['me'] as const,
  account: () => ['account'] as const,
  signInMethods: () => ['signInMethods'] as const,
  enrolment: (token: string) => ['enrolment', token] as const,
  clients: () => ['clients'] as const,
  staff: () => ['staff'] as const,
  audit: {
    all: () => ['audit'] as const,
    filtered: (filters: unknown) => ['audit', filters] as const,
  },
  participants: {
    search: () => ['search'] as const,
    searchFor: (q: string) => ['search', q] as const,
    one: (clientId: string, id: string) => ['participant', clientId, id] as const,
    statement: (clientId: string, id: string) => ['participant', clientId, id, 'statement'] as const,
    events: (clientId: string, id: string) => ['participant', clientId, id, 'events'] as const,
  },
  settings: {
    limits: (clientId: string) => ['settings', clientId] as const,
    branding: (clientId: string) => ['branding', clientId] as const,
    catalogs: (clientId: string) => ['catalogSettings', clientId] as const,
    expiry: (clientId: string) => ['expirySettings', clientId] as const,
    locales: (clientId: string) => ['localeSettings', clientId] as const,
    program: (clientId: string) => ['programSettings', clientId] as const,
    sso: (clientId: string) => ['ssoSettings', clientId] as const,
  },
  content: {
    list: (clientId: string) => ['content', clientId, 'list'] as const,
    entry: (clientId: string, locale: string, key: string) => ['content', clientId, locale, key] as const,
    preview: (clientId: string, body: unknown) => ['content-preview', clientId, body] as const,
  },
  translations: {
    ofClient: (clientId: string) => ['translations', clientId] as const,
    page: (clientId: string, locale: string, filter: string, q: string) => ['translations', clientId, locale, filter, q] as const,
    /** Under ofClient, so a changed text refreshes the brand preview too. */
    bundle: (clientId: string, locale: string) => ['translations', clientId, locale, 'bundle'] as const,
  },
  apiKeys: (clientId: string) => ['apiKeys', clientId] as const,
  imports: {
    ofClient: (clientId: string) => ['imports', clientId] as const,
    job: (clientId: string, jobId: string) => ['import', clientId, jobId] as const,
  },
  earningRules: {
    ofClient: (clientId: string) => ['earningRules', clientId] as const,
    /** Under ofClient: a change to any rule refreshes the list and the rule's page. */
    rule: (clientId: string, ruleId: string) => ['earningRules', clientId, ruleId] as const,
    /** Under ofClient (a rule's change changes which rules earn on a type); '#' is in no rule id. */
    eventTypes: (clientId: string) => ['earningRules', clientId, '#event-types'] as const,
  },
  webhooks: {
    endpoints: (clientId: string) => ['webhooks', clientId] as const,
    deliveries: (clientId: string, endpointId: string) => ['webhookDeliveries', clientId, endpointId] as const,
  },
  codes: {
    batches: (clientId: string) => ['codeBatches', clientId] as const,
    batch: (clientId: string, batch: string) => ['codeBatch', clientId, batch] as const,
    batchShowing: (clientId: string, batch: string, filter: string | undefined) => ['codeBatch', clientId, batch, filter] as const,
  },
  reports: {
    participants: (clientId: string) => ['reports', 'participants', clientId] as const,
    points: (clientId: string, months: number) => ['reports', 'points', clientId, months] as const,
    codes: (clientId: string) => ['reports', 'codes', clientId] as const,
    orders: (clientId: string, months: number) => ['reports', 'orders', clientId, months] as const,
    comparison: (months: number) => ['reports', 'comparison', months] as const,
  },
};
