import type { DemoSeedContext } from './demo-context.ts';

/** The content part of the demo program (issue 5). */
export async function seedDemoContent(_ctx: DemoSeedContext): Promise<void> {}
