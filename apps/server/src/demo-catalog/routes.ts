import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { z } from 'zod';
import {
  CatalogTokenClaims,
  CatalogType,
  ErrorCode,
  JWKS_PATH,
  PARTNER_API_BASE,
  PartnerDebitReply,
  PunchoutReply,
  partnerPaths,
  type PartnerDebitRequest,
} from '@rewards/contract';
import type { DemoCatalogConfig } from '../config.ts';
import { PAGE_HEADERS, securityHeaders } from '../http/security-headers.ts';
import { catalogPage, confirmationPage, messagePage } from './pages.ts';
import { items, languageOf, texts, type CatalogLanguage } from './texts.ts';

const Token = z.string().min(1).max(4000);
const OrderForm = z.object({
  token: Token,
  item: z.string().min(1).max(40),
  orderId: z.string().regex(/^demo-[0-9a-f-]{36}$/),
  // Optional in the schema so that a form without it gets the "not valid" page, not a bare 400.
  visit: z.string().max(100).optional(),
});

/** What the portal said to redeeming a link. */
type Redemption = 'redeemed' | 'used' | 'expired' | 'ended' | 'invalid' | 'failed';

type Verified =
  { ok: true; claims: CatalogTokenClaims; portal: string } | { ok: false; problem: 'expired' | 'invalid'; portal: string | undefined };

/** The portal's home page for a verified issuer (an origin); undefined for anything else. */
function portalHome(iss: unknown): string | undefined {
  if (typeof iss !== 'string') return undefined;
  try {
    const url = new URL(iss);
    return url.protocol === 'http:' || url.protocol === 'https:' ? `${url.origin}/` : undefined;
  } catch {
    return undefined;
  }
}

/** Where this process listens, for the demo catalog to reach the portal as a separate app would. */
function ownAddress(app: FastifyInstance): string {
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('The demo catalog needs the portal listening on TCP');
  const host = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
}

function languageFromHeader(header: string | undefined): CatalogLanguage {
  return languageOf(header?.split(',')[0]?.trim());
}

function page(reply: FastifyReply, status: number, html: string): FastifyReply {
  // The page's forms carry the punch-out token: no caching, no referrer.
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .send(html);
}

/**
 * The demo catalog that `npm start` serves beside the portal (issue 5, section 3; never in
 * production, decision 072). It stands in for a partner's catalog and uses only what a separate
 * one would: the punch-out token, the portal's published keys fetched over HTTP, and the partner
 * API with its own credentials.
 */
export function demoCatalogRoutes(app: FastifyInstance, demo: DemoCatalogConfig): void {
  const css = readFileSync(join(import.meta.dirname, 'catalog.css'), 'utf8');
  const portalBase = () => (demo.portalUrl ?? ownAddress(app)).replace(/\/$/, '');
  const keySets = new Map<string, JWTVerifyGetKey>();
  const keysOf = (base: string) => {
    let set = keySets.get(base);
    if (!set) {
      set = createRemoteJWKSet(new URL(JWKS_PATH, base));
      keySets.set(base, set);
    }
    return set;
  };

  // The proof, in each order form, that the page came from redeeming the link: a keyed hash of
  // the link's jti. Whoever holds only the link (its one use spent) cannot order with it. Keyed
  // by the partner secret, so every process serving the demo agrees without sharing state.
  const visitKey = createHmac('sha256', demo.partnerSecret).update('demo-catalog visit').digest();
  const visitProof = (jti: string) => createHmac('sha256', visitKey).update(jti, 'utf8').digest('base64url');
  const provesVisit = (jti: string, visit: string | undefined) => {
    const expected = Buffer.from(visitProof(jti), 'utf8');
    const given = Buffer.from(visit ?? '', 'utf8');
    return given.length === expected.length && timingSafeEqual(given, expected);
  };

  async function verify(token: string, offering: CatalogType): Promise<Verified> {
    try {
      const { payload } = await jwtVerify(token, keysOf(portalBase()), {
        audience: demo.partnerId,
        algorithms: ['EdDSA', 'ES256'],
        requiredClaims: ['exp', 'sub', 'iss', 'jti'],
      });
      const claims = CatalogTokenClaims.safeParse(payload);
      const portal = portalHome(payload.iss);
      if (!claims.success || claims.data.offering !== offering || !portal) return { ok: false, problem: 'invalid', portal: undefined };
      return { ok: true, claims: claims.data, portal };
    } catch (error) {
      // jose checks the signature before the expiry: an expired token's issuer is the portal's word.
      if (error instanceof joseErrors.JWTExpired) return { ok: false, problem: 'expired', portal: portalHome(error.payload.iss) };
      return { ok: false, problem: 'invalid', portal: undefined };
    }
  }

  function refused(reply: FastifyReply, lang: CatalogLanguage, verified: Extract<Verified, { ok: false }>): FastifyReply {
    const t = texts[lang];
    return verified.problem === 'expired'
      ? page(reply, 401, messagePage(lang, t.expiredTitle, t.expired, verified.portal))
      : page(reply, 401, messagePage(lang, t.invalidTitle, t.invalid, verified.portal));
  }

  /**
   * What a catalog does on opening a link: redeem it with the portal, once. A second opening
   * (a reload, a copied link, the browser's history after signing out) is refused by the portal.
   */
  async function redeem(portal: string, claims: CatalogTokenClaims): Promise<Redemption> {
    const credentials = Buffer.from(`${demo.partnerId}:${demo.partnerSecret}`, 'utf8').toString('base64');
    const response = await fetch(`${portalBase()}${PARTNER_API_BASE}${partnerPaths.punchout(claims.jti)}`, {
      method: 'POST',
      headers: { 'client-id': portal.replace(/\/$/, ''), authorization: `Basic ${credentials}` },
      signal: AbortSignal.timeout(10_000),
    });
    const json: unknown = await response.json().catch(() => undefined);
    if (response.status === 200) {
      const reply = PunchoutReply.safeParse(json);
      return reply.success && reply.data.participantId === claims.sub && reply.data.offering === claims.offering ? 'redeemed' : 'invalid';
    }
    const errorCode = z.object({ errorCode: z.number() }).safeParse(json);
    switch (errorCode.success ? errorCode.data.errorCode : undefined) {
      case ErrorCode.punchoutUsed:
        return 'used';
      case ErrorCode.punchoutExpired:
        return 'expired';
      case ErrorCode.punchoutSessionEnded:
        return 'ended';
      case ErrorCode.punchoutNotFound:
        return 'invalid';
      default:
        return 'failed';
    }
  }

  async function placeOrder(
    portal: string,
    body: PartnerDebitRequest,
  ): Promise<{ status: number; reply?: PartnerDebitReply; errorCode?: number }> {
    const credentials = Buffer.from(`${demo.partnerId}:${demo.partnerSecret}`, 'utf8').toString('base64');
    const response = await fetch(`${portalBase()}${PARTNER_API_BASE}${partnerPaths.debits}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'client-id': portal.replace(/\/$/, ''), authorization: `Basic ${credentials}` },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const json: unknown = await response.json().catch(() => undefined);
    if (response.status === 200) return { status: 200, reply: PartnerDebitReply.parse(json) };
    const errorCode = z.object({ errorCode: z.number() }).safeParse(json);
    return { status: response.status, ...(errorCode.success ? { errorCode: errorCode.data.errorCode } : {}) };
  }

  const scoped = async (scope: FastifyInstance) => {
    // Pages: a document's security headers (decision 056).
    securityHeaders(scope, PAGE_HEADERS);
    const typed = scope.withTypeProvider<ZodTypeProvider>();
    // Plain HTML forms post url-encoded bodies; only the demo catalog accepts them.
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 8 * 1024 }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8'))));
    });
    // An HTML app answers in HTML, also when something is wrong.
    scope.setErrorHandler((error, request, reply) => {
      const lang = languageFromHeader(request.headers['accept-language']);
      const status = (error as { statusCode?: number }).statusCode;
      if (typeof status === 'number' && status >= 400 && status < 500) {
        return page(reply, 400, messagePage(lang, texts[lang].invalidTitle, texts[lang].invalid, undefined));
      }
      request.log.error(
        { err: { type: error instanceof Error ? error.name : 'unknown', message: error instanceof Error ? error.message : '' } },
        'demo catalog failed',
      );
      return page(reply, 500, messagePage(lang, texts[lang].refusedTitle, texts[lang].failed, undefined));
    });
    scope.setNotFoundHandler((request, reply) => {
      const lang = languageFromHeader(request.headers['accept-language']);
      return page(reply, 404, messagePage(lang, texts[lang].notFound, texts[lang].notFound, undefined));
    });

    typed.get('/catalog.css', async (_request, reply) =>
      reply.header('content-type', 'text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(css),
    );

    typed.get(
      '/travel',
      { schema: { headers: z.object({ 'accept-language': z.string().max(500).optional() }) } },
      async (request, reply) => {
        const lang = languageFromHeader(request.headers['accept-language']);
        const t = texts[lang];
        return page(reply, 200, messagePage(lang, t.travelTitle, t.travel, undefined).replace('role="alert"', 'role="status"'));
      },
    );

    // Log level warn: the request line carries the token, which must not reach the log.
    typed.get(
      '/:type',
      { logLevel: 'warn', schema: { params: z.object({ type: z.string().max(40) }), querystring: z.object({ token: Token.optional() }) } },
      async (request, reply) => {
        const lang = languageFromHeader(request.headers['accept-language']);
        const type = CatalogType.safeParse(request.params.type);
        if (!type.success) return page(reply, 404, messagePage(lang, texts[lang].notFound, texts[lang].notFound, undefined));
        if (!request.query.token) return refused(reply, lang, { ok: false, problem: 'invalid', portal: undefined });
        const verified = await verify(request.query.token, type.data);
        if (!verified.ok) return refused(reply, lang, verified);
        const { claims, portal } = verified;
        const shopperLang = languageOf(claims.locale);
        const t = texts[shopperLang];
        const redemption = await redeem(portal, claims).catch((): Redemption => 'failed');
        // A spent or orphaned link: say so in the participant's language, send them back, offer nothing to order.
        if (redemption === 'used') return page(reply, 409, messagePage(shopperLang, t.usedTitle, t.used, portal));
        if (redemption === 'ended') return page(reply, 410, messagePage(shopperLang, t.endedTitle, t.ended, portal));
        if (redemption === 'expired') return refused(reply, shopperLang, { ok: false, problem: 'expired', portal });
        if (redemption === 'invalid') return refused(reply, shopperLang, { ok: false, problem: 'invalid', portal: undefined });
        if (redemption === 'failed') return page(reply, 502, messagePage(shopperLang, t.unreachableTitle, t.unreachable, portal));
        return page(
          reply,
          200,
          catalogPage(
            shopperLang,
            {
              name: claims.name,
              balance: claims.balance,
              offering: claims.offering,
              token: request.query.token,
              visit: visitProof(claims.jti),
              portal,
            },
            // A fresh order id per form: submitting the same form twice is the same order.
            () => `demo-${randomUUID()}`,
          ),
        );
      },
    );

    typed.post(
      '/:type/order',
      { logLevel: 'warn', schema: { params: z.object({ type: CatalogType }), body: OrderForm } },
      async (request, reply) => {
        const { token, item: sku, orderId, visit } = request.body;
        const verified = await verify(token, request.params.type);
        if (!verified.ok) return refused(reply, languageFromHeader(request.headers['accept-language']), verified);
        const { claims, portal } = verified;
        // Only the page that redeemed the link can order with it.
        if (!provesVisit(claims.jti, visit))
          return refused(reply, languageOf(claims.locale), { ok: false, problem: 'invalid', portal: undefined });
        const lang = languageOf(claims.locale);
        const t = texts[lang];
        const item = items[request.params.type].find((i) => i.sku === sku);
        if (!item) return page(reply, 404, messagePage(lang, t.refusedTitle, t.notFound, portal));
        const name = item.name[lang];
        const outcome = await placeOrder(portal, {
          orderId,
          participantId: claims.sub,
          points: item.points,
          description: name,
          items: [{ sku: item.sku, name, quantity: 1, points: item.points }],
        }).catch(() => ({ status: 502 as number, reply: undefined, errorCode: undefined }));
        if (outcome.reply) return page(reply, 200, confirmationPage(lang, name, orderId, outcome.reply.accountBalance, portal));
        const message =
          outcome.errorCode === ErrorCode.insufficientBalance
            ? t.insufficient
            : outcome.errorCode === ErrorCode.orderConflict
              ? t.conflict
              : t.failed;
        return page(reply, outcome.status === 409 ? 409 : 502, messagePage(lang, t.refusedTitle, message, portal));
      },
    );
  };
  void app.register(scoped, { prefix: '/demo-catalog' });
}
