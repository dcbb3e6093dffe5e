/**
 * Which addresses a fetch may connect to: the private and local ranges, and
 * the lookup that checks every address a name resolves to at connect time.
 * fetch.ts applies it hop by hop (the first address is the person's choice;
 * a public one may not redirect into their network); this module only
 * resolves and classifies.
 */
import dns from 'node:dns';
import net from 'node:net';

/** The resolver underneath the address guard: always asked for every address of a name. */
export type Resolver = (
  hostname: string,
  options: dns.LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void,
) => void;

export const systemResolver: Resolver = (hostname, options, callback) => dns.lookup(hostname, options, callback);

/** The code of the error a refused address fails a lookup with. */
export const PRIVATE_ADDRESS = 'EPRIVATEADDRESS';

// Loopback, private, link-local, shared (CGNAT) and unspecified ranges: addresses inside the person's
// own machine or network, which a public site must not be able to make us reach.
const PRIVATE_RANGES = new net.BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  PRIVATE_RANGES.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  // Site-local: deprecated, but still routed inside some networks.
  ['fec0::', 10],
] as const) {
  PRIVATE_RANGES.addSubnet(network, prefix, 'ipv6');
}

/**
 * Whether an IP address is loopback, private, link-local, unique-local, shared
 * (CGNAT) or unspecified, also when written as an IPv4-mapped (::ffff:a.b.c.d)
 * or NAT64 (64:ff9b::a.b.c.d) IPv6 address, which reach the same IPv4 host.
 * Anything that is not an IP address is not one.
 */
export function isPrivateAddress(ip: string): boolean {
  const bare = ip.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  const family = net.isIP(bare);
  if (family === 4) return PRIVATE_RANGES.check(bare, 'ipv4');
  if (family !== 6) return false;
  const embedded = embeddedIPv4(bare);
  if (embedded !== undefined) return PRIVATE_RANGES.check(embedded, 'ipv4');
  return PRIVATE_RANGES.check(bare, 'ipv6');
}

/** The IPv4 address inside an IPv4-mapped or NAT64 IPv6 address, whichever way it is written. */
function embeddedIPv4(ipv6: string): string | undefined {
  // The URL parser writes every spelling of an IPv6 address one way (lower case, compressed, hex groups).
  let normal: string;
  try {
    normal = new URL(`http://[${ipv6}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
  const match = /^(?:::ffff|64:ff9b:):([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(normal);
  if (!match) return undefined;
  const high = parseInt(match[1] ?? '0', 16);
  const low = parseInt(match[2] ?? '0', 16);
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/**
 * The `lookup` for http.request: resolves a host name and checks every address
 * it answers at connect time, so the address connected to is the address
 * checked (a name that answers publicly to a pre-check and privately a moment
 * later gains nothing). With `privateAllowed` false, a name with any private
 * address is refused. `onResolved` sees the addresses that were let through.
 *
 * Node calls it two ways: `{ all: true }` wanting an array (net's
 * autoSelectFamily, on by default since Node 20), or wanting one address and
 * its family; both are answered.
 */
export function addressGuard(
  privateAllowed: boolean,
  resolve: Resolver = systemResolver,
  onResolved?: (addresses: readonly dns.LookupAddress[]) => void,
): net.LookupFunction {
  return (hostname, options, callback) => {
    const fail = (err: NodeJS.ErrnoException): void => (options.all ? callback(err, []) : callback(err, '', 4));
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return fail(err);
      if (addresses.length === 0 || addresses.some((entry) => net.isIP(entry.address) === 0)) {
        return fail(Object.assign(new Error(`${hostname} has no usable address`), { code: 'ENOTFOUND', hostname }));
      }
      const refused = privateAllowed ? undefined : addresses.find((entry) => isPrivateAddress(entry.address));
      if (refused) {
        return fail(
          Object.assign(new Error(`${hostname} resolves to ${refused.address}, a private or local network address`), {
            code: PRIVATE_ADDRESS,
            hostname,
            address: refused.address,
          }),
        );
      }
      onResolved?.(addresses);
      const [first] = addresses;
      if (options.all) callback(null, addresses);
      else if (first) callback(null, first.address, first.family);
    });
  };
}
