import type { DemoSeedContext } from './demo-context.ts';

/** The catalog part of the demo program (issue 5). */
export async function seedDemoCatalog(_ctx: DemoSeedContext): Promise<void> {}
