import type { DemoSeedContext } from './demo-context.ts';

/** The activity part of the demo program (issue 5). */
export async function seedDemoActivity(_ctx: DemoSeedContext): Promise<void> {}
