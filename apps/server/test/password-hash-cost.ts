/**
 * Every test file's setup: the worker hashes at the configured cost, as a server or command does
 * at start (PASSWORD_HASH_COST, set for test runs in vitest.config.ts; decision 088).
 */
import { loadConfig } from '../src/config.ts';
import { usePasswordHashCost } from '../src/modules/auth/password.ts';

usePasswordHashCost(loadConfig({ PASSWORD_HASH_COST: process.env.PASSWORD_HASH_COST }).passwordHashCost);
