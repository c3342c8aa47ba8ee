import type { Command } from 'commander';

/** Registered up front; the capability that owns it fills it in (issue 8 / 9). */
export function registerAdmins(_program: Command): void {}
