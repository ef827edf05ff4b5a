import { isIP } from "node:net";

/**
 * The address bucket of a client: an IPv4 address as it is, an IPv6 address cut to its /64 (one
 * home or one phone gets a whole /64, so counting single IPv6 addresses would count nothing), an
 * IPv4 address written as IPv6 (`::ffff:1.2.3.4`) as the IPv4 one. Anything else is its own bucket.
 */
export function addressBucket(address: string): string {
  const plain = address.startsWith("::ffff:") && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
  if (isIP(plain) !== 6) return plain;
  return `${expandIPv6(plain).slice(0, 4).join(":")}::/64`;
}

/** The eight groups of an IPv6 address, without leading zeros (`::` expanded, zone dropped). */
function expandIPv6(address: string): string[] {
  const [bare = ""] = address.toLowerCase().split("%");
  let groups: string[];
  if (bare.includes("::")) {
    const [head = "", tail = ""] = bare.split("::");
    const left = head === "" ? [] : head.split(":");
    const right = tail === "" ? [] : tail.split(":");
    groups = [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
  } else {
    groups = bare.split(":");
  }
  return groups.map((g) => (g.includes(".") ? g : g.replace(/^0+(?=.)/, "")));
}
