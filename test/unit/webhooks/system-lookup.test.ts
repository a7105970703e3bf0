import { systemLookup } from '../../../functions/adapters/http/checked-address';
import { isIP, newBlockList } from '../../../functions/adapters/http/node-net';

// `node:dns` and `node:net` are loaded on first use (not while a function starts): the first use
// must still resolve and classify as before. `localhost` resolves from the hosts file, on this machine.
describe('name resolution and address checks loaded on first use', () => {
  it('resolves localhost to loopback addresses only', async () => {
    const addresses = await systemLookup('localhost');
    expect(addresses.length).toBeGreaterThan(0);
    for (const { address, family } of addresses) {
      expect([4, 6]).toContain(family);
      expect(isIP(address)).toBe(family);
      expect(address === '::1' || address.startsWith('127.')).toBe(true);
    }
  });

  it('tells IPv4 from IPv6 from a name, and builds block lists that match their ranges', () => {
    expect([isIP('192.0.2.1'), isIP('2001:db8::1'), isIP('example.com')]).toEqual([4, 6, 0]);
    const list = newBlockList();
    list.addSubnet('10.0.0.0', 8, 'ipv4');
    expect([list.check('10.1.2.3', 'ipv4'), list.check('11.0.0.1', 'ipv4')]).toEqual([true, false]);
  });
});
