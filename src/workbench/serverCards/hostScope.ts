/**
 * Where a URL's host is, as far as its text tells (no DNS: a public name that resolves to a private address is not
 * caught here; redirects are held to one origin, so a document cannot be moved there either):
 * - `loopback`: this machine (127.0.0.0/8, ::1, localhost and *.localhost);
 * - `private`: the local network (RFC 1918, link-local, shared address space, unique-local and link-local IPv6,
 *   0.0.0.0/8, single-label names and the local-only suffixes);
 * - `public`: anything else.
 * A document read from a public host may not send the client to the other two (cards.ts).
 */
export type HostScope = 'loopback' | 'private' | 'public';

const LOCAL_SUFFIXES = ['.local', '.lan', '.internal', '.intranet', '.home.arpa', '.corp'];

/** `hostname` as WHATWG URL gives it: IPv4 normalized to dotted decimal, IPv6 in brackets and compressed. */
export function hostScope(hostname: string): HostScope {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
  if (host.startsWith('[')) return ipv6Scope(host.slice(1, -1));
  const v4 = ipv4(host);
  if (v4) return ipv4Scope(v4);
  if (!host.includes('.') || LOCAL_SUFFIXES.some((suffix) => host.endsWith(suffix))) return 'private';
  return 'public';
}

function ipv4(host: string): number[] | undefined {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!match) return undefined;
  const parts = match.slice(1).map(Number);
  return parts.every((part) => part <= 255) ? parts : undefined;
}

function ipv4Scope([a, b]: number[]): HostScope {
  if (a === 127) return 'loopback';
  if (a === 10 || a === 0) return 'private';
  if (a === 172 && b >= 16 && b <= 31) return 'private';
  if (a === 192 && b === 168) return 'private';
  if (a === 169 && b === 254) return 'private';
  if (a === 100 && b >= 64 && b <= 127) return 'private';
  return 'public';
}

function ipv6Scope(address: string): HostScope {
  if (address === '::1') return 'loopback';
  if (address === '::') return 'private';
  // IPv4-mapped (::ffff:7f00:1, as WHATWG writes ::ffff:127.0.0.1): the IPv4 address decides.
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(address);
  if (mapped) {
    const high = parseInt(mapped[1], 16);
    const low = parseInt(mapped[2], 16);
    return ipv4Scope([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  }
  const first = parseInt(address.split(':')[0] || '0', 16);
  if ((first & 0xfe00) === 0xfc00) return 'private'; // fc00::/7, unique local
  if ((first & 0xffc0) === 0xfe80) return 'private'; // fe80::/10, link local
  return 'public';
}
