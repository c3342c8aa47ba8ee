import { describe, expect, it } from 'vitest';
import { addressProblem, checkUrlForm, resolveTarget, type Resolver } from './address.ts';
import { checkWebhookUrl, type WebhookSettings } from './manage.ts';

const production = { allowLoopback: false };
const development = { allowLoopback: true };

describe('where a webhook may go (decision 084)', () => {
  it.each([
    ['127.0.0.1', 'a loopback address'],
    ['127.8.9.10', 'a loopback address'],
    ['::1', 'a loopback address'],
    ['::ffff:127.0.0.1', 'a loopback address'],
    ['10.0.0.8', 'a private, link-local or reserved address'],
    ['172.20.1.1', 'a private, link-local or reserved address'],
    ['192.168.1.20', 'a private, link-local or reserved address'],
    ['100.64.0.1', 'a private, link-local or reserved address'],
    ['169.254.169.254', 'a private, link-local or reserved address'],
    ['fd00:ec2::254', 'a private, link-local or reserved address'],
    ['fe80::1', 'a private, link-local or reserved address'],
    ['fc00::5', 'a private, link-local or reserved address'],
    ['::ffff:10.0.0.1', 'a private, link-local or reserved address'],
    ['::ffff:a9fe:a9fe', 'a private, link-local or reserved address'],
    ['0.0.0.0', 'a private, link-local or reserved address'],
    ['::', 'a private, link-local or reserved address'],
    ['64:ff9b::a00:1', 'a private, link-local or reserved address'],
    ['224.0.0.1', 'a private, link-local or reserved address'],
  ])('refuses %s in production: %s', (address, problem) => {
    expect(addressProblem(address, production)).toBe(problem);
  });

  it('lets public addresses through, and loopback only when allowed; never the metadata service', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])
      expect(addressProblem(address, production)).toBeUndefined();
    expect(addressProblem('127.0.0.1', development)).toBeUndefined();
    expect(addressProblem('::1', development)).toBeUndefined();
    expect(addressProblem('169.254.169.254', development)).toBeDefined();
    expect(addressProblem('fd00:ec2::254', development)).toBeDefined();
    expect(addressProblem('10.0.0.1', development)).toBeDefined();
  });

  it('wants an https URL in production, without credentials or a fragment', () => {
    expect(checkUrlForm('https://hooks.example.com/in', production)).toMatchObject({ ok: true });
    expect(checkUrlForm('http://hooks.example.com/in', production)).toEqual({ ok: false, problem: 'must be https' });
    expect(checkUrlForm('http://127.0.0.1:9000/in', development)).toMatchObject({ ok: true });
    expect(checkUrlForm('ftp://hooks.example.com/', development)).toEqual({ ok: false, problem: 'must be http or https' });
    expect(checkUrlForm('https://user:pw@hooks.example.com/', production)).toMatchObject({ ok: false });
    expect(checkUrlForm('https://hooks.example.com/#x', production)).toMatchObject({ ok: false });
    expect(checkUrlForm('hooks.example.com/in', production)).toEqual({ ok: false, problem: 'not an absolute URL' });
    expect(checkUrlForm(`https://hooks.example.com/${'a'.repeat(2000)}`, production)).toMatchObject({ ok: false });
  });

  it('refuses a host when any address it resolves to is inward, and one that does not resolve', async () => {
    const dns: Record<string, string[]> = {
      'hooks.example.com': ['93.184.216.34'],
      'rebind.example.com': ['93.184.216.34', '10.0.0.7'],
      'meta.example.com': ['169.254.169.254'],
      'v6meta.example.com': ['fd00:ec2::254'],
    };
    const resolver: Resolver = async (host) => {
      const found = dns[host];
      if (!found) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    };
    const url = (host: string) => new URL(`https://${host}/in`);
    expect(await resolveTarget(url('hooks.example.com'), production, resolver)).toEqual({
      ok: true,
      target: { address: '93.184.216.34', family: 4 },
    });
    for (const host of ['rebind.example.com', 'meta.example.com', 'v6meta.example.com'])
      expect(await resolveTarget(url(host), production, resolver)).toMatchObject({ ok: false });
    expect(await resolveTarget(url('nowhere.example.com'), production, resolver)).toEqual({
      ok: false,
      problem: 'the host does not resolve (ENOTFOUND)',
    });
    // An address literal is judged as it is, without DNS.
    expect(await resolveTarget(url('[fd00:ec2::254]'), production, resolver)).toMatchObject({ ok: false });

    // Saved in production: 400 with the reason, for each way inward.
    const settings: WebhookSettings = { dataDir: '/nonexistent', policy: production, resolver };
    for (const bad of [
      'http://hooks.example.com/in',
      'https://127.0.0.1/in',
      'https://localhost/in',
      'https://169.254.169.254/latest/meta-data',
      'https://[fd00:ec2::254]/',
      'https://meta.example.com/in',
      'https://rebind.example.com/in',
    ])
      await expect(checkWebhookUrl(settings, bad), bad).rejects.toMatchObject({
        statusCode: 400,
        responseMessage: 'webhooks.error.urlRefused',
      });
    expect(await checkWebhookUrl(settings, 'https://hooks.example.com/in')).toBe('https://hooks.example.com/in');
  });

  it("asks the system's resolver by default: localhost is this machine, refused in production", async () => {
    await expect(checkWebhookUrl({ dataDir: '/nonexistent', policy: production }, 'https://localhost/in')).rejects.toMatchObject({
      statusCode: 400,
      message: 'Refused webhook URL: the host resolves to a loopback address',
    });
    expect(await checkWebhookUrl({ dataDir: '/nonexistent', policy: development }, 'http://localhost:8080/in')).toBe(
      'http://localhost:8080/in',
    );
  });
});
