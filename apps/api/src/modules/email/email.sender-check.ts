import { authenticate, type DNSResolver } from "mailauth";

/**
 * Whether a received message really comes from the address in its From line, by the rules its domain publishes in DNS:
 * - "verified": DMARC passes (an SPF or DKIM pass for the From domain); or, where the domain publishes no DMARC, a DKIM
 *   signature of the From domain checks out.
 * - "forged": DMARC fails; or, without DMARC, SPF fails outright ("-all") for a sender of the From domain and nothing
 *   else vouches for it.
 * - "unknown": nothing was published, or DNS could not be asked; the message is treated as it was before these checks.
 * `reject` is set when the From domain asks receivers to reject mail that fails (DMARC p=reject).
 */
export interface SenderVerdict {
  verdict: "verified" | "forged" | "unknown";
  /** What was found, in a few words (for the ticket's note and the log). */
  summary: string;
  reject: boolean;
}

export interface SenderCheckOptions {
  /** DNS lookups (TXT for SPF, DKIM and DMARC records; A, MX...): the system's resolver unless given. */
  resolver?: DNSResolver;
  /** The name this receiver gives itself in the results. */
  mta?: string;
}

const UNKNOWN = (summary: string): SenderVerdict => ({ verdict: "unknown", summary, reject: false });

const domainOf = (address: string | null | undefined) => address?.split("@").pop()?.toLowerCase() ?? "";

/** Checks one message as the SMTP session delivered it. Never throws: a failure to check is "unknown". */
export async function checkSender(
  raw: Buffer,
  session: { ip: string | null; helo: string | null; envelopeFrom: string | null },
  opts: SenderCheckOptions = {},
): Promise<SenderVerdict> {
  try {
    const result = await authenticate(raw, {
      ip: session.ip ?? undefined,
      helo: session.helo ?? undefined,
      sender: session.envelopeFrom ?? "",
      mta: opts.mta ?? "cove",
      resolver: opts.resolver,
      disableArc: true,
      disableBimi: true,
    });
    const from = domainOf(result.dkim.headerFrom.at(-1));
    if (!from) return UNKNOWN("no From domain");
    const dmarc = result.dmarc || null;
    const dmarcResult = dmarc?.status.result;
    if (dmarcResult === "pass") return { verdict: "verified", summary: `DMARC pass for ${from}`, reject: false };
    if (dmarcResult === "fail") {
      return {
        verdict: "forged",
        summary: `DMARC fail for ${from} (policy ${dmarc?.policy || "none"})`,
        reject: dmarc?.policy === "reject",
      };
    }
    const dkimPass = result.dkim.results.some(
      (r) => r.status.result === "pass" && domainOf(`x@${r.signingDomain}`) === from,
    );
    if (dkimPass) return { verdict: "verified", summary: `DKIM pass for ${from}`, reject: false };
    const spf = result.spf || null;
    if (spf?.status.result === "fail" && domainOf(session.envelopeFrom) === from) {
      return { verdict: "forged", summary: `SPF fail for ${from}`, reject: false };
    }
    return UNKNOWN(`no verdict for ${from} (SPF ${spf?.status.result ?? "none"}, DMARC ${dmarcResult ?? "none"})`);
  } catch {
    return UNKNOWN("the check could not run");
  }
}
