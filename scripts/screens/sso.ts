import type { ScreenKit } from './kit.ts';

/** Screens of issue 9 (sso), filled by that capability. */
export default async function scenes(_kit: ScreenKit): Promise<void> {}
