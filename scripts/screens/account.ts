import type { ScreenKit } from './kit.ts';

/** Screens of the account capability (issue 7). */
export default async function scenes(_kit: ScreenKit): Promise<void> {}
