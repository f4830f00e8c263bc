import { BlockList, isIP } from "node:net";

/**
 * Internal addresses: the ones a tenant's admin must not make Cove connect to (a mailbox to import, a webhook), since
 * they reach the server's own machine and network (loopback, private, link-local, cloud metadata, and every IPv6 form
 * carrying one of those IPv4 addresses).
 */

/** Addresses a tenant's admin must not make Cove connect to: the server's own machine and network. */
const INTERNAL = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  INTERNAL.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 127],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const) {
  INTERNAL.addSubnet(net, prefix, "ipv6");
}

/** An IPv6 address as its eight 16-bit groups (a dotted IPv4 tail and "::" read); null when it is not one. */
export function ipv6Groups(address: string): number[] | null {
  if (isIP(address) !== 6) return null;
  let text = address.toLowerCase();
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1] && dotted[2]) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted[2].split(".").map(Number);
    text = `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const part = (p: string) => (p === "" ? [] : p.split(":").map((g) => Number.parseInt(g, 16)));
  const front = part(head);
  const back = tail === undefined ? [] : part(tail);
  const groups = tail === undefined ? front : [...front, ...Array(8 - front.length - back.length).fill(0), ...back];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

const quad = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/**
 * The IPv4 addresses an IPv6 address carries, in every form a packet to it can reach an IPv4 host by: IPv4-compatible
 * (::a.b.c.d), IPv4-mapped (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d), NAT64 (64:ff9b::a.b.c.d), 6to4
 * (2002:aabb:ccdd::) and Teredo (2001:0:server:...:client, the client's bits inverted).
 */
export function embeddedIpv4(groups: number[]): string[] {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0) return [quad(g6, g7)];
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return [quad(g6, g7)];
  if (g0 === 0x2002) return [quad(g1, g2)];
  if (g0 === 0x2001 && g1 === 0) return [quad(g2, g3), quad(g6 ^ 0xffff, g7 ^ 0xffff)];
  return [];
}

/** True for an address of the server's own machine or network, however it is written (v4 inside v6 among them). */
export function isInternal(address: string): boolean {
  if (isIP(address) === 4) return INTERNAL.check(address, "ipv4");
  // A scoped address (fe80::1%eth0) names an interface of this machine.
  if (address.includes("%")) return true;
  const groups = ipv6Groups(address);
  if (!groups) return true;
  const [, , , , g4 = 0, g5 = 0] = groups;
  // In ::/64 only the mapped, translated and compatible forms exist; anything else there is refused.
  if (
    groups.slice(0, 4).every((g) => g === 0) &&
    !((g4 === 0 && g5 === 0) || (g4 === 0 && g5 === 0xffff) || (g4 === 0xffff && g5 === 0))
  ) {
    return true;
  }
  if (embeddedIpv4(groups).some((v4) => INTERNAL.check(v4, "ipv4"))) return true;
  return INTERNAL.check(groups.map((g) => g.toString(16)).join(":"), "ipv6");
}
