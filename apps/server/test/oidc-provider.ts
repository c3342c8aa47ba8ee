// The browser tests import this file under another tsconfig (tsconfig.scripts.json); the reference
// brings the package's missing types along wherever it goes.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./oidc-provider-module.d.ts" />
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';

/**
 * A real OpenID provider (oidc-provider) in the test process, over http on 127.0.0.1: what the
 * single sign-on tests sign in at. Its own development login page (devInteractions) takes any
 * password; the login typed there is the account id, whose claims come from `accounts`.
 */
export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The query of every request to the end-session endpoint, in order. */
  endSessionRequests: URLSearchParams[];
  close(): Promise<void>;
}

export interface TestProviderOptions {
  redirectUris: string[];
  postLogoutRedirectUris?: string[];
  /** Account id (what is typed on the provider's page) → its claims, preferred_username among them. */
  accounts: Record<string, Record<string, string | boolean>>;
  /**
   * How an account signs in at the provider (its ID token's amr and acr), for the staff sign-in's
   * tests (decision 068). Accounts not listed sign in as the development page does: neither.
   */
  authentication?: Record<string, { amr?: string[]; acr?: string }>;
  clientId?: string;
  clientSecret?: string;
}

export async function startTestProvider(options: TestProviderOptions): Promise<TestProvider> {
  const clientId = options.clientId ?? 'rewards-portal';
  const clientSecret = options.clientSecret ?? 'test-provider-secret-5f1e9c0a7b';
  const endSessionRequests: URLSearchParams[] = [];
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const configuration: Configuration = {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        post_logout_redirect_uris: options.postLogoutRedirectUris ?? [],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    async findAccount(_ctx: KoaContextWithOIDC, id: string) {
      const claims = options.accounts[id];
      if (!claims) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, ...claims }) };
    },
    // acr and amr with openid: in every ID token, as Keycloak and Entra ID send them (the staff sign-in reads them).
    claims: { openid: ['sub', 'acr', 'amr'], profile: ['preferred_username', 'name', 'upn'], email: ['email', 'email_verified'] },
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true, logoutSource } },
    pkce: { required: () => true },
    // A first-party client: no consent screen, every requested scope granted.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session?.grantIdFor(ctx.oidc.client!.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
      grant.addOIDCScope('openid profile email');
      await grant.save();
      return grant;
    },
    cookies: { keys: ['test-provider-cookie-key-0b6f'] },
    // Set, so that the provider does not print a notice for each default it falls back to.
    ttl: { Interaction: 600, Grant: 3600, Session: 3600, AccessToken: 600, IdToken: 600 },
  };
  // Made at the first request, so a caller may add redirect URIs to `options.redirectUris` until
  // then (a server whose port is chosen after the provider started).
  let provider: Provider | undefined;
  let handle: ReturnType<Provider['callback']> | undefined;
  server.on('request', (request, response) => {
    if (!provider) {
      provider = new Provider(issuer, configuration);
      handle = provider.callback();
    }
    const url = new URL(request.url ?? '/', issuer);
    if (url.pathname === '/session/end') endSessionRequests.push(url.searchParams);
    if (options.authentication && request.method === 'POST' && /^\/interaction\/[^/]+$/.test(url.pathname)) {
      void finishLogin(provider, options.authentication, request, response);
      return;
    }
    handle!(request, response);
  });

  return {
    issuer,
    clientId,
    clientSecret,
    endSessionRequests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The development login page's submission, finished with the account's amr and acr (the
 * development interactions record neither): what a provider does after its own factors.
 */
async function finishLogin(
  provider: Provider,
  authentication: NonNullable<TestProviderOptions['authentication']>,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  let body = '';
  for await (const chunk of request) body += String(chunk);
  const login = new URLSearchParams(body).get('login') ?? '';
  const { amr, acr } = authentication[login] ?? {};
  try {
    await provider.interactionFinished(
      request,
      response,
      { login: { accountId: login, ...(amr ? { amr } : {}), ...(acr ? { acr } : {}) } },
      { mergeWithLastSubmission: false },
    );
  } catch {
    response.statusCode = 400;
    response.end('interaction failed');
  }
}

/**
 * The sign-out page. oidc-provider asks "Do you want to sign-out?" on every RP-initiated logout;
 * its maintainers point to a self-submitting form for providers that skip the question
 * (panva/node-oidc-provider#536, #223). This one skips it the way Keycloak or IdentityServer do:
 * when the request carried an id_token_hint (oidc-provider has validated it: issuer, signature,
 * audience) naming the account signed in here. Without it, the question.
 */
async function logoutSource(ctx: KoaContextWithOIDC & { body?: string }, form: string): Promise<void> {
  const hint = ctx.oidc.entities?.IdTokenHint?.payload;
  const accountId = ctx.oidc.session?.accountId;
  if (hint && accountId && hint.sub === accountId) {
    const confirmed = form.replace('</form>', '<input type="hidden" name="logout" value="yes"/></form>');
    ctx.body = `<!DOCTYPE html><html><body>${confirmed}<script>document.forms[0].submit()</script></body></html>`;
    return;
  }
  ctx.body = `<!DOCTYPE html><html><body><h1>Do you want to sign-out?</h1>${form}<button type="submit" form="op.logoutForm" value="yes" name="logout">Yes, sign me out</button></body></html>`;
}

/** Cookies per name, as a browser keeps them for the provider's one origin (enough for its flow). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const index = pair!.indexOf('=');
      const name = pair!.slice(0, index).trim();
      const value = pair!.slice(index + 1).trim();
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/** What a browser does with the provider's page it has landed on: stop there, or submit a form. */
type PageStep = { stop: true } | { submit: URL; body?: string };

/**
 * Walks a browser through the provider from `start`: follows redirects with the provider's
 * cookies (GET after a redirect, as browsers do), lets `onPage` decide at each page (a step
 * without a body is a GET), and returns
 * where the browser leaves the provider (or the page `onPage` stopped on), with whether it stopped.
 */
async function walkProvider(
  start: string,
  jar: CookieJar,
  onPage: (page: string, action: URL) => PageStep,
): Promise<{ url: URL; stopped: boolean }> {
  const providerOrigin = new URL(start).origin;
  let url = new URL(start);
  let body: string | undefined;
  for (let hop = 0; hop < 20; hop += 1) {
    if (url.origin !== providerOrigin) return { url, stopped: false };
    const response = await fetch(url, {
      method: body === undefined ? 'GET' : 'POST',
      redirect: 'manual',
      headers: { cookie: jar.header(), ...(body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }) },
      ...(body === undefined ? {} : { body }),
    });
    jar.take(response);
    const location = response.headers.get('location');
    if (location) {
      url = new URL(location, url);
      body = undefined;
      continue;
    }
    const page = await response.text();
    const action = /action="([^"]+)"/.exec(page)?.[1];
    if (response.status !== 200 || !action) throw new Error(`The provider answered ${response.status} at ${url.pathname}`);
    const step = onPage(page, new URL(action.replaceAll('&amp;', '&'), url));
    if ('stop' in step) return { url, stopped: true };
    url = step.submit;
    body = step.body;
  }
  throw new Error('Too many redirects at the provider');
}

/**
 * Does at the provider what a person does in a browser: opens the authorization URL, types
 * `login` on the login page (or cancels there), and returns the URL the provider finally sends
 * the browser to (the portal's callback with code and state, or with an error). Pass a `jar` to
 * keep the provider's session for a later signOutAtProvider.
 */
export async function signInAtProvider(
  authorizationUrl: string,
  login: string,
  options: { cancel?: boolean; jar?: CookieJar } = {},
): Promise<URL> {
  const walked = await walkProvider(authorizationUrl, options.jar ?? new CookieJar(), (_page, submit) => {
    // The development login page's "[ Cancel ]" link: the interaction's abort address, opened.
    if (options.cancel) return { submit: new URL(`${submit.pathname.replace(/\/$/, '')}/abort`, submit) };
    return { submit, body: new URLSearchParams({ prompt: 'login', login, password: 'any' }).toString() };
  });
  return walked.url;
}

/**
 * Follows a browser sent to the provider's end-session endpoint: a self-submitting page is
 * submitted (as a browser runs its script); a page that asks the person to confirm is where it
 * stops. Returns where the browser ends, and whether it was asked.
 */
export async function signOutAtProvider(endSessionUrl: string, jar: CookieJar): Promise<{ url: URL; asked: boolean }> {
  const walked = await walkProvider(endSessionUrl, jar, (page, submit) => {
    // A page that submits itself (this provider's hinted sign-out, oidc-provider's own form_post).
    if (!page.includes('document.forms[0].submit()')) return { stop: true };
    const fields = new URLSearchParams();
    for (const input of page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g)) fields.set(input[1]!, input[2]!);
    return { submit, body: fields.toString() };
  });
  return { url: walked.url, asked: walked.stopped };
}
