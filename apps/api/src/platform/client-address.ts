import { isIPv6 } from "node:net";

/**
 * The address a throttle counts a client by. An IPv4 address as it is; an IPv6 one by its /64 network, since one
 * household or server gets a whole /64 and can use any address in it (the rate limits of @fastify/rate-limit group
 * the same way), so rotating addresses within it gains nothing.
 */
export function clientAddress(ip: string): string {
  if (!isIPv6(ip)) return ip.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  const [head = "", tail = ""] = ip.toLowerCase().split("%")[0]?.split("::") ?? [];
  const left = head ? head.split(":") : [];
  const right = ip.includes("::") && tail ? tail.split(":") : [];
  // An embedded IPv4 tail takes two groups; only the first four groups matter here, so it can stand as one.
  const groups = [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right];
  const network = groups.slice(0, 4).map((g) => Number.parseInt(g || "0", 16).toString(16));
  return `${network.join(":")}::/64`;
}
