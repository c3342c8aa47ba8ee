import type { ScreenKit } from './kit.ts';

/** Screens of the extras capability (issue 5). */
export default async function scenes(_kit: ScreenKit): Promise<void> {}
