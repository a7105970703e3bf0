import { checkTargetUrl, classifyAddress, isAllowedAddress, type AddressClass } from '../../../functions/adapters/http/target-address';
import type { TargetPolicy } from '../../../functions/core/webhooks/target-policy';

const live: TargetPolicy = { requireHttps: true, allowPrivate: false };
const localTest: TargetPolicy = { requireHttps: false, allowPrivate: true };
const awsTest: TargetPolicy = { requireHttps: false, allowPrivate: false };

describe('classifyAddress', () => {
  it.each<[string, AddressClass]>([
    ['8.8.8.8', 'public'],
    ['93.184.216.34', 'public'],
    ['0.0.0.0', 'reserved'],
    ['0.1.2.3', 'reserved'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['100.63.255.255', 'public'],
    ['100.64.0.1', 'private'],
    ['100.127.255.255', 'private'],
    ['100.128.0.0', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.0.1', 'link_local'],
    ['169.254.170.2', 'link_local'],
    ['169.254.169.254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['172.15.255.255', 'public'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.0', 'public'],
    ['192.0.0.170', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.51.100.7', 'reserved'],
    ['203.0.113.9', 'reserved'],
    ['192.168.1.1', 'private'],
    ['198.18.0.1', 'reserved'],
    ['198.19.255.255', 'reserved'],
    ['198.20.0.0', 'public'],
    ['224.0.0.1', 'reserved'],
    ['239.255.255.250', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['::', 'reserved'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::2', 'reserved'],
    ['::127.0.0.1', 'reserved'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fd00:ec2::254', 'metadata'],
    ['fe80::1', 'link_local'],
    ['fe80::1%eth0', 'link_local'],
    ['febf::1', 'link_local'],
    ['ff02::1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['2606:4700:4700::1111', 'public'],
    ['2a00:1450:4001::200e', 'public'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::FFFF:7F00:0001', 'loopback'],
    ['0:0:0:0:0:ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:a9fe:a9fe', 'metadata'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:8.8.8.8', 'public'],
    ['::ffff:0:127.0.0.1', 'loopback'],
    ['64:ff9b::127.0.0.1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['64:ff9b::10.1.2.3', 'private'],
    ['64:ff9b::808:808', 'public'],
    ['64:ff9b:1::1', 'reserved'],
    ['64:ff9b:1::a9fe:a9fe', 'reserved'],
    ['64:ff9b:1:a9fe:a9:fe00::', 'reserved'],
    ['2002:7f00:1::', 'reserved'],
    ['not-an-ip', 'reserved'],
    ['', 'reserved'],
    ['1.2.3', 'reserved'],
  ])('%s is %s', (ip, expected) => {
    expect(classifyAddress(ip)).toBe(expected);
  });
});

describe('isAllowedAddress', () => {
  it('allows only public addresses by default', () => {
    expect(isAllowedAddress('8.8.8.8', live)).toBe(true);
    expect(isAllowedAddress('2606:4700:4700::1111', live)).toBe(true);
    for (const ip of ['127.0.0.1', '10.0.0.1', '100.64.0.1', 'fd12::1', '::ffff:7f00:1', '169.254.169.254', '0.0.0.0']) {
      expect(isAllowedAddress(ip, live)).toBe(false);
      expect(isAllowedAddress(ip, awsTest)).toBe(false);
    }
  });

  it('allows loopback and private ranges for local test mode, never link-local, metadata or reserved', () => {
    for (const ip of ['127.0.0.1', '::1', '10.0.0.1', '192.168.0.10', '100.64.0.1', 'fd12::1', '::ffff:127.0.0.1']) {
      expect(isAllowedAddress(ip, localTest)).toBe(true);
    }
    for (const ip of [
      '169.254.169.254',
      '169.254.1.1',
      'fd00:ec2::254',
      'fe80::1',
      '::ffff:169.254.169.254',
      '64:ff9b:1::a9fe:a9fe',
      '0.0.0.0',
      '::',
      '224.0.0.1',
    ]) {
      expect(isAllowedAddress(ip, localTest)).toBe(false);
    }
  });
});

describe('checkTargetUrl', () => {
  const refused = (url: string, policy: TargetPolicy = live) => {
    const result = checkTargetUrl(url, policy);
    expect(result.ok).toBe(false);
    return result.ok ? '' : result.reason;
  };

  it('accepts a public https URL and returns it parsed', () => {
    const result = checkTargetUrl('https://hooks.example.com:8443/in?x=1', live);
    expect(result.ok && result.url.href).toBe('https://hooks.example.com:8443/in?x=1');
    expect(checkTargetUrl('https://8.8.8.8/hook', live).ok).toBe(true);
    expect(checkTargetUrl('https://[2606:4700:4700::1111]/hook', live).ok).toBe(true);
  });

  it('needs https in live mode, http or https otherwise', () => {
    expect(refused('http://hooks.example.com/')).toBe('must use https in live mode');
    expect(checkTargetUrl('http://hooks.example.com/', awsTest).ok).toBe(true);
    expect(refused('ftp://hooks.example.com/', awsTest)).toBe('must use http or https');
    expect(refused('file:///etc/passwd', awsTest)).toMatch(/http/);
    expect(refused('javascript:alert(1)', awsTest)).toMatch(/http/);
  });

  it('refuses what is not a URL, too long, or carries credentials', () => {
    expect(refused('')).toBe('is required');
    expect(refused('hooks.example.com/in')).toBe('is not a valid absolute URL');
    expect(refused('https://')).toBe('is not a valid absolute URL');
    expect(refused(`https://hooks.example.com/${'a'.repeat(2048)}`)).toMatch(/2048/);
    expect(checkTargetUrl(`https://hooks.example.com/${'a'.repeat(2048 - 26)}`, live).ok).toBe(true);
    expect(refused('https://user:pass@hooks.example.com/')).toMatch(/user name or password/);
    expect(refused('https://user@hooks.example.com/')).toMatch(/user name or password/);
  });

  it('refuses port 0, which nothing can listen on: every attempt would fail until the webhook did', () => {
    expect(refused('http://127.0.0.1:0/hook', localTest)).toBe('must have a port from 1 to 65535');
    expect(refused('http://127.0.0.1:00/hook', localTest)).toBe('must have a port from 1 to 65535');
    expect(checkTargetUrl('http://127.0.0.1:1/hook', localTest).ok).toBe(true);
    expect(checkTargetUrl('http://127.0.0.1:65535/hook', localTest).ok).toBe(true);
  });

  it.each([
    'https://127.0.0.1/',
    'https://127.1/',
    'https://0x7f.0.0.1/',
    'https://2130706433/',
    'https://017700000001/',
    'https://10.0.0.1/',
    'https://172.16.5.4/',
    'https://192.168.1.1/',
    'https://100.64.1.1/',
    'https://0.0.0.0/',
    'https://[::1]/',
    'https://[::ffff:127.0.0.1]/',
    'https://[::ffff:7f00:1]/',
    'https://[fd12::1]/',
    'https://localhost/',
    'https://LOCALHOST./',
    'https://api.localhost:8080/',
  ])('refuses %s by default, whatever the spelling', (url) => {
    expect(refused(url)).toMatch(/^target is a (loopback|private|reserved) address$/);
  });

  it.each(['https://169.254.169.254/latest/meta-data/', 'https://[fd00:ec2::254]/', 'https://[fe80::1]/', 'https://169.254.170.2/'])(
    'refuses %s even in local test mode',
    (url) => {
      expect(refused(url, localTest)).toMatch(/link-local|metadata/);
    },
  );

  it('allows loopback, private and localhost in local test mode', () => {
    for (const url of [
      'http://127.0.0.1:4000/hook',
      'http://[::1]:4000/',
      'http://10.0.0.5/',
      'http://localhost:4000/',
      'https://app.localhost/',
    ]) {
      expect(checkTargetUrl(url, localTest).ok).toBe(true);
    }
  });
});
