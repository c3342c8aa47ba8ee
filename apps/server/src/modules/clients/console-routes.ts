import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { STAFF_ROLES, type StaffRole } from '@rewards/contract/console';
import {
  BrandingReply,
  BrandingRequest,
  BrandingSettings,
  CatalogSettings,
  CatalogSettingsReply,
  CatalogSettingsRequest,
  ExpirySettings,
  ExpirySettingsReply,
  ExpirySettingsRequest,
  LocaleSettings,
  LocaleSettingsReply,
  LocaleSettingsRequest,
  ProgramSettings,
  ProgramSettingsReply,
  ProgramSettingsRequest,
  PartnerRevokeReply,
  PartnerRevokeRequest,
  PartnerSecretReply,
  PartnerSecretRequest,
  consoleClientPaths as paths,
} from '@rewards/contract/console-clients';
import { ConsoleParticipantParams } from '@rewards/contract/console-participants';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { requireRole, staffOf, type ConsoleOrigin } from '../staff/guard.ts';
import { logoFromUpload, readBranding, setBranding } from './branding.ts';
import { readCatalogSettings, revokePartner, rotatePartnerSecret, setCatalogSettings } from './catalog-settings.ts';
import { readExpirySettings, setExpirySettings } from './expiry-settings.ts';
import { readLocaleSettings, setLocaleSettings } from './locale-settings.ts';
import { readProgramSettings, setProgramSettings } from './program-settings.ts';
import type { Documented } from '../staff/routes.ts';

/** Who may change a client's settings: its program managers (and owners, who pass every role check). */
const MANAGING: readonly StaffRole[] = ['program_manager'];
const ClientParams = ConsoleParticipantParams.pick({ clientId: true });
const expiryPattern = paths.expirySettings(':clientId').replaceAll('%3A', ':');
const localesPattern = paths.localeSettings(':clientId').replaceAll('%3A', ':');
const programPattern = paths.programSettings(':clientId').replaceAll('%3A', ':');
const brandingPattern = paths.brandingSettings(':clientId').replaceAll('%3A', ':');
const catalogsPattern = paths.catalogSettings(':clientId').replaceAll('%3A', ':');
const partnerSecretPattern = paths.partnerSecret(':clientId', ':partnerId').replaceAll('%3A', ':');
const partnerRevokePattern = paths.partnerRevoke(':clientId', ':partnerId').replaceAll('%3A', ':');
const PartnerParams = ClientParams.extend({ partnerId: z.string().min(1).max(200) });

/**
 * The console's client settings of points that expire (issue 19, docs/decisions/062), inside the
 * console plugin of modules/staff/routes.ts. Every role of the client reads them (support agents
 * and auditors read-only); program managers and owners change them with a reason, through the
 * service `rewards clients update --expiry …` calls.
 */
export function consoleClientRoutes(api: FastifyInstance, db: Db, site: ConsoleOrigin, documented: Documented): void {
  const typed = api.withTypeProvider<ZodTypeProvider>();
  const clientIdOf = (request: FastifyRequest) => (request.params as { clientId: string }).clientId;

  typed.get(
    expiryPattern,
    {
      onRequest: requireRole(db, site, clientIdOf, STAFF_ROLES),
      schema: {
        summary: "The client's expiry policy, time zone and reminder days",
        params: ClientParams,
        response: { 200: ExpirySettings },
        ...documented({ roles: STAFF_ROLES }),
      },
    },
    async (request) => readExpirySettings(db, request.params.clientId),
  );

  typed.put(
    expiryPattern,
    {
      onRequest: requireRole(db, site, clientIdOf, MANAGING),
      schema: {
        summary:
          'Set the expiry policy (dates only points earned from now on), the time zone and the reminder days, with a reason; audited',
        params: ClientParams,
        body: ExpirySettingsRequest,
        response: { 200: ExpirySettingsReply },
        ...documented({ roles: MANAGING }),
      },
    },
    async (request) => {
      const { reason, ...change } = request.body;
      const actor = { name: staffOf(request).staff.email, kind: 'staff' as const, origin: request.ip };
      const done = await setExpirySettings(db, actor, request.params.clientId, change, reason);
      return { ...done.to, auditId: done.auditId };
    },
  );

  // Name, logo and brand colour (issue 20 §3, docs/decisions/065).
  typed.get(
    brandingPattern,
    {
      onRequest: requireRole(db, site, clientIdOf, STAFF_ROLES),
      schema: {
        summary: "The client's name, logo and brand colour",
        params: ClientParams,
        response: { 200: BrandingSettings },
        ...documented({ roles: STAFF_ROLES }),
      },
    },
    async (request) => readBranding(db, request.params.clientId),
  );

  typed.put(
    brandingPattern,
    {
      onRequest: requireRole(db, site, clientIdOf, MANAGING),
      // A logo of 256 KB is about 350 KB of base64.
      bodyLimit: 512 * 1024,
      schema: {
        summary: 'Set the name, brand colour and (optionally) a new logo, checked as `rewards clients` checks them, with a reason; audited',
        params: ClientParams,
        body: BrandingRequest,
        response: { 200: BrandingReply },
        ...documented({ roles: MANAGING }),
      },
    },
    async (request) => {
      const { reason, logo, name, brandColor } = request.body;
      const actor = { name: staffOf(request).staff.email, kind: 'staff' as const, origin: request.ip };
      const change = { name, brandColor, ...(logo ? { logo: logoFromUpload(logo) } : {}) };
      const done = await setBranding(db, actor, request.params.clientId, change, reason);
      return { ...done.to, auditId: done.auditId };
    },
  );

  // Locales, default locale and media labels (issue 20 §3, decision 065).
  typed.get(
    localesPattern,
    {
      onRequest: requireRole(db, site, clientIdOf, STAFF_ROLES),
      schema: {
        summary: "The client's locales in order, its default locale and its media labels",
        params: ClientParams,
        response: { 200: LocaleSettings },
        ...documented({ roles: STAFF_ROLES }),
      },
    },
    async (request) => readLocaleSettings(db, request.params.clientId),
  );

  typed.put(
    localesPattern,
    {
      onRequest: requireRole(db, site, clientIdOf, MANAGING),
      schema: {
        summary:
          'Set the locales, the default locale and the media labels (one text for every form, or forms by plural category), with a reason; audited',
        params: ClientParams,
        body: LocaleSettingsRequest,
        response: { 200: LocaleSettingsReply },
        ...documented({ roles: MANAGING }),
      },
    },
    async (request) => {
      const { reason, ...change } = request.body;
      const actor = { name: staffOf(request).staff.email, kind: 'staff' as const, origin: request.ip };
      const done = await setLocaleSettings(db, actor, request.params.clientId, change, reason);
      return { ...done.to, auditId: done.auditId };
    },
  );

  // Password rules, activation fields, travel link, support e-mail, privacy notice version (issue 20 §3, decision 065).
  typed.get(
    programPattern,
    {
      onRequest: requireRole(db, site, clientIdOf, STAFF_ROLES),
      schema: {
        summary: "The client's password rules, activation fields, travel link, support e-mail and privacy notice version",
        params: ClientParams,
        response: { 200: ProgramSettings },
        ...documented({ roles: STAFF_ROLES }),
      },
    },
    async (request) => readProgramSettings(db, request.params.clientId),
  );

  typed.put(
    programPattern,
    {
      onRequest: requireRole(db, site, clientIdOf, MANAGING),
      schema: {
        summary:
          'Set the password rules, activation fields, travel link, support e-mail and privacy notice version, with a reason; audited',
        params: ClientParams,
        body: ProgramSettingsRequest,
        response: { 200: ProgramSettingsReply },
        ...documented({ roles: MANAGING }),
      },
    },
    async (request) => {
      const { reason, ...change } = request.body;
      const actor = { name: staffOf(request).staff.email, kind: 'staff' as const, origin: request.ip };
      const done = await setProgramSettings(db, actor, request.params.clientId, change, reason);
      return { ...done.to, auditId: done.auditId };
    },
  );

  // Catalogs and their partners (issue 20 §3, part H, decision 065).
  typed.get(
    catalogsPattern,
    {
      onRequest: requireRole(db, site, clientIdOf, STAFF_ROLES),
      schema: {
        summary: "The client's merchandise and experiences catalogs and its catalog partners (never a secret)",
        params: ClientParams,
        response: { 200: CatalogSettings },
        ...documented({ roles: STAFF_ROLES }),
      },
    },
    async (request) => readCatalogSettings(db, request.params.clientId),
  );

  typed.put(
    catalogsPattern,
    {
      onRequest: requireRole(db, site, clientIdOf, MANAGING),
      schema: {
        summary:
          "Set the merchandise and experiences catalogs (address and partner; null withdraws), with a fresh second factor and a reason; a new partner's secret is in this reply only; audited",
        params: ClientParams,
        body: CatalogSettingsRequest,
        response: { 200: CatalogSettingsReply },
        // A new partner's secret, and where participants' punch-out links go (decision 077).
        ...documented({ roles: MANAGING }, { freshSecondFactor: true }),
      },
    },
    async (request, reply) => {
      const { reason, ...change } = request.body;
      const actor = { name: staffOf(request).staff.email, kind: 'staff' as const, origin: request.ip };
      const done = await setCatalogSettings(db, actor, request.params.clientId, change, reason);
      if (done.secrets.length > 0) reply.header('cache-control', 'no-store');
      return { ...done.to, auditId: done.auditId, secrets: done.secrets };
    },
  );

  typed.post(
    partnerSecretPattern,
    {
      onRequest: requireRole(db, site, clientIdOf, MANAGING),
      schema: {
        summary:
          "Replace a catalog partner's secret with a new one (a fresh second factor and a reason): the secret is in this reply only; audited without it",
        params: PartnerParams,
        body: PartnerSecretRequest,
        response: { 200: PartnerSecretReply },
        ...documented({ roles: MANAGING }, { freshSecondFactor: true }),
      },
    },
    async (request, reply) => {
      const actor = { name: staffOf(request).staff.email, kind: 'staff' as const, origin: request.ip };
      const done = await rotatePartnerSecret(db, actor, request.params.clientId, request.params.partnerId, request.body.reason);
      reply.header('cache-control', 'no-store');
      return done;
    },
  );

  typed.post(
    partnerRevokePattern,
    {
      onRequest: requireRole(db, site, clientIdOf, MANAGING),
      schema: {
        summary:
          'Revoke a catalog partner that no catalog names any more (a fresh second factor and a reason): its secret stops working, its orders stay; 409 while a catalog names it',
        params: PartnerParams,
        body: PartnerRevokeRequest,
        response: { 200: PartnerRevokeReply },
        ...documented({ roles: MANAGING }, { freshSecondFactor: true }),
      },
    },
    async (request) => {
      const actor = { name: staffOf(request).staff.email, kind: 'staff' as const, origin: request.ip };
      return revokePartner(db, actor, request.params.clientId, request.params.partnerId, request.body.reason);
    },
  );
}
