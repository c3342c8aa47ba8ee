import { z } from 'zod';

/** A BCP 47 tag such as en-US, fr-FR or ar: letters and digits in hyphenated parts. */
export const LocaleCode = z
  .string()
  .min(2)
  .max(35)
  .regex(/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/);
export type LocaleCode = z.infer<typeof LocaleCode>;

export const Direction = z.enum(['ltr', 'rtl']);
export type Direction = z.infer<typeof Direction>;

export const Locale = z.object({ code: LocaleCode, dir: Direction });
export type Locale = z.infer<typeof Locale>;

/** A locale a client offers, with its own name for itself ("Français", "العربية"). */
export const LocaleOption = Locale.extend({ name: z.string() });
export type LocaleOption = z.infer<typeof LocaleOption>;

export const Bundle = z.object({ locale: LocaleCode, properties: z.record(z.string(), z.string()) });
export type Bundle = z.infer<typeof Bundle>;

export const BundleList = z.record(z.string(), Bundle);
export type BundleList = z.infer<typeof BundleList>;

export const BundleReply = z.object({ bundleList: BundleList });
export type BundleReply = z.infer<typeof BundleReply>;

export const BundleParams = z.object({ locale: LocaleCode });

/** Plural forms of a media label, keyed by Intl.PluralRules categories. `other` is required. */
export const PluralForms = z.object({
  zero: z.string().optional(),
  one: z.string().optional(),
  two: z.string().optional(),
  few: z.string().optional(),
  many: z.string().optional(),
  other: z.string(),
});
export type PluralForms = z.infer<typeof PluralForms>;

/** cmText is the label as the spec names it; forms, where given, carry its plural forms. */
export const MediaLabel = z.object({ locale: LocaleCode, cmText: z.string(), forms: PluralForms.optional() });
export type MediaLabel = z.infer<typeof MediaLabel>;
