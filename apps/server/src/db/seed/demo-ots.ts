import type { DemoSeedContext } from './demo-context.ts';

/** The ots part of the demo program (issue 5). */
export async function seedDemoOts(_ctx: DemoSeedContext): Promise<void> {}
