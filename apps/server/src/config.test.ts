import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

/** TRUST_PROXY's accepted forms (docs/decisions/041); no database is involved. */
describe('TRUST_PROXY', () => {
  const trust = (value: string | undefined) => loadConfig(value === undefined ? {} : { TRUST_PROXY: value }).trustProxy;

  it('trusts no proxy by default, or when set to false or 0', () => {
    expect([trust(undefined), trust('false'), trust('0'), trust(' FALSE ')]).toEqual([false, false, false, false]);
  });

  it('takes a hop count, or addresses, CIDR ranges and named ranges separated by commas', () => {
    expect(trust('1')).toBe(1);
    expect(trust('2')).toBe(2);
    expect(trust('10.0.0.5, 10.1.0.0/16,loopback')).toEqual(['10.0.0.5', '10.1.0.0/16', 'loopback']);
    expect(trust('::1,fd00::/8,uniquelocal')).toEqual(['::1', 'fd00::/8', 'uniquelocal']);
  });

  it('refuses true at start, naming TRUST_PROXY and the accepted forms', () => {
    expect(() => trust('true')).toThrow(/TRUST_PROXY: true would trust every X-Forwarded-For entry.*number of proxies.*addresses/);
  });

  it('refuses what is neither a count nor addresses', () => {
    for (const value of [
      '',
      'yes',
      '11',
      '-1',
      '1.5',
      '10.0.0.0/33',
      '::1/129',
      '10.0.0.0/8/1',
      '10.0.0.5,',
      'proxy.example',
      '300.1.1.1',
    ]) {
      expect(() => trust(value), value).toThrow(/TRUST_PROXY: /);
    }
  });
});
