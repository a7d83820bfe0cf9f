import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { BlockList, isIP } from "node:net";
import { rootCertificates } from "node:tls";
import { Agent, buildConnector, fetch as undiciFetch } from "undici";
import type { Configuration } from "oidc-provider";

/** Which addresses a Client ID Metadata Document may be fetched from, besides public ones. */
export interface MetadataAddressPolicy {
  /** RFC 1918, unique-local (fc00::/7) and shared (100.64.0.0/10) addresses: a private network's documents (OAUTH_CLIENT_METADATA_CA_FILE). */
  privateNetworks: boolean;
  /** 127.0.0.0/8 and ::1. Only tests turn it on, to serve documents from this machine; no setting of the server does. */
  loopback: boolean;
}

// A client id is chosen by whoever starts an authorization: without these refusals it would make
// the server connect to anything it can reach (an SSRF). Addresses that embed an IPv4 address
// (NAT64, 6to4, IPv4-compatible) are refused whole; IPv4-mapped ones (::ffff:a.b.c.d) are checked
// as the IPv4 address they are, which BlockList does by itself.
function blockList(subnets: Array<[string, number]>): BlockList {
  const list = new BlockList();
  for (const [address, prefix] of subnets) list.addSubnet(address, prefix, address.includes(":") ? "ipv6" : "ipv4");
  return list;
}

const LOOPBACK = blockList([["127.0.0.0", 8], ["::1", 128]]);
const PRIVATE = blockList([["10.0.0.0", 8], ["172.16.0.0", 12], ["192.168.0.0", 16], ["100.64.0.0", 10], ["fc00::", 7]]);
const NEVER: Array<[string, BlockList]> = [
  ["an unspecified address", blockList([["0.0.0.0", 8], ["::", 128]])],
  ["a link-local address", blockList([["169.254.0.0", 16], ["fe80::", 10], ["fec0::", 10]])],
  ["a multicast or broadcast address", blockList([["224.0.0.0", 4], ["240.0.0.0", 4], ["ff00::", 8]])],
  [
    "a special-purpose address",
    blockList([
      ["192.0.0.0", 24], ["192.0.2.0", 24], ["192.88.99.0", 24], ["198.18.0.0", 15], ["198.51.100.0", 24], ["203.0.113.0", 24],
      ["::", 96], ["::ffff:0:0:0", 96], ["64:ff9b::", 96], ["64:ff9b:1::", 48], ["100::", 64], ["2001::", 23], ["2001:db8::", 32], ["2002::", 16],
    ]),
  ],
];

/** What kind of refused address `address` (an IP address) is, or undefined when it may be connected to. */
function refusedKind(address: string, policy: MetadataAddressPolicy): string | undefined {
  const family = isIP(address);
  if (family === 0) return "not an IP address";
  const type = family === 4 ? "ipv4" : "ipv6";
  if (LOOPBACK.check(address, type)) return policy.loopback ? undefined : "a loopback address";
  for (const [kind, list] of NEVER) if (list.check(address, type)) return kind;
  if (PRIVATE.check(address, type)) return policy.privateNetworks ? undefined : "a private address";
  return undefined;
}

/** Why `address` (an IP address) may not be connected to, or undefined when it may. */
export function addressRefusal(address: string, policy: MetadataAddressPolicy): string | undefined {
  const kind = refusedKind(address, policy);
  return kind && `${address} is ${kind}`;
}

const unbracketed = (hostname: string) => hostname.replace(/^\[(.*)\]$/, "$1");

/**
 * The refusal of a host before anything is resolved: an IP literal outside the policy (the URL
 * parser has already turned 2130706433, 0x7f.1 and 017700000001 into 127.0.0.1), or a
 * `localhost` name (RFC 6761 §6.3), with or without its trailing dot.
 */
function hostRefusal(hostname: string, policy: MetadataAddressPolicy): string | undefined {
  const host = unbracketed(hostname);
  if (isIP(host)) return addressRefusal(host, policy);
  const name = host.toLowerCase().replace(/\.$/, "");
  if (!policy.loopback && (name === "localhost" || name.endsWith(".localhost"))) return `${hostname} names this machine`;
  return undefined;
}

function refusalOfAddresses(hostname: string, addresses: LookupAddress[], policy: MetadataAddressPolicy): string | undefined {
  if (addresses.length === 0) return `${hostname} has no address`;
  for (const { address } of addresses) {
    const kind = refusedKind(address, policy);
    if (kind) return `${hostname} resolves to ${address}, ${kind}`;
  }
  return undefined;
}

const RESOLVE_TIMEOUT_MS = 2_500;

/**
 * Why the document at `clientId` may not be fetched, or undefined: its host is refused, or one of
 * the addresses its name resolves to is. Said before any connection is made; the connection itself
 * is checked again by the fetch (a name may resolve differently a moment later).
 */
export async function clientIdUrlRefusal(clientId: string, policy: MetadataAddressPolicy): Promise<string | undefined> {
  const url = URL.parse(clientId);
  if (!url) return "it is not a URL";
  const refusal = hostRefusal(url.hostname, policy);
  if (refusal || isIP(unbracketed(url.hostname))) return refusal;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`resolving ${url.hostname} took longer than ${RESOLVE_TIMEOUT_MS} ms`)), RESOLVE_TIMEOUT_MS);
  });
  try {
    const addresses = await Promise.race([resolveAll(url.hostname), timeout]);
    return refusalOfAddresses(url.hostname, addresses, policy);
  } catch (error) {
    return `${url.hostname} could not be resolved (${(error as Error).message})`;
  } finally {
    clearTimeout(timer);
  }
}

const resolveAll = (hostname: string) =>
  new Promise<LookupAddress[]>((resolve, reject) => dnsLookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))));

/**
 * The lookup the fetch's connections use: the name is resolved once, every address is checked,
 * and the socket connects only to the addresses that were checked, so a name cannot resolve to a
 * public address for the check and to a private one for the connection (DNS rebinding).
 */
function checkedLookup(policy: MetadataAddressPolicy) {
  return (hostname: string, options: LookupOptions, callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const refusal = refusalOfAddresses(hostname, addresses, policy);
      if (refusal) return callback(Object.assign(new Error(refusal), { code: "ERR_ADDRESS_REFUSED" }), []);
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/**
 * The fetch oidc-provider uses for Client ID Metadata Documents. Its own protection closes a
 * connection to a special-use address after it is made; this one refuses before connecting: IP
 * literals when the connection starts, names in the lookup the socket connects with.
 */
export function clientMetadataFetch(policy: MetadataAddressPolicy, ca?: string): NonNullable<Configuration["fetch"]> {
  const connector = buildConnector({ ...(ca ? { ca: [...rootCertificates, ca] } : {}), lookup: checkedLookup(policy) });
  const agent = new Agent({
    connect: (options, callback) => {
      // A literal is connected to without a lookup; a name is checked by the lookup it connects with.
      const refusal = isIP(unbracketed(options.hostname)) ? hostRefusal(options.hostname, policy) : undefined;
      if (refusal) return callback(new Error(refusal), null);
      connector(options, callback);
    },
  });
  // The library passes its own dispatcher in `init`; this agent replaces it.
  return (input, init) => undiciFetch(String(input), { ...(init as object), dispatcher: agent }) as unknown as Promise<Response>;
}
