import type { Browser, Page } from 'playwright-core';

/** A language the screenshots are taken in, with its name as the language selector shows it. */
export interface ScreenLocale {
  code: string;
  name: RegExp;
}

/** What `npm run screenshots` hands each capability's scenes (scripts/screens/<capability>.ts). */
export interface ScreenKit {
  browser: Browser;
  widths: readonly number[];
  locales: readonly ScreenLocale[];
  /** A fresh context at this width (phones 812px tall, desktops 900px), reduced motion. */
  newPage(width: number): Promise<Page>;
  /** Signs in through the login form and waits for home. */
  signIn(page: Page, username?: string): Promise<void>;
  /** Switches the language through the header's selector and waits for the page to follow. */
  switchTo(page: Page, locale: ScreenLocale): Promise<void>;
  /** Waits for the network to settle and fonts, then writes screenshots/<name>.png (full page). */
  shoot(page: Page, name: string): Promise<void>;
  /** The screenshots' server database (DATABASE_URL), for scenes that arrange rows no command makes. */
  databaseUrl: string;
  /** Runs the operator command on the screenshots' server database (its stdout); a client change shows within CLIENT_CACHE_SECONDS. */
  rewards(args: string[]): Promise<string>;
}

export type Scenes = (kit: ScreenKit) => Promise<void>;
