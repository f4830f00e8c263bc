/** The compressed forms Cove keeps of a file, best first. */
export type ContentEncoding = "br" | "gzip";

/**
 * The best of `offered` that an Accept-Encoding header takes (RFC 9110 section 12.5.3): q-values count, "q=0" refuses,
 * "*" stands for any coding not named; among equal q-values the order of `offered` decides. Null: send it as it is.
 */
export function acceptedEncoding(
  header: string | string[] | undefined,
  offered: readonly ContentEncoding[] = ["br", "gzip"],
): ContentEncoding | null {
  const weights = new Map<string, number>();
  for (const part of [header ?? ""].flat().join(",").split(",")) {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    const weight = q === undefined ? 1 : Number(q);
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  let best: ContentEncoding | null = null;
  let bestWeight = 0;
  for (const encoding of offered) {
    const weight =
      weights.get(encoding) ?? (encoding === "gzip" ? weights.get("x-gzip") : undefined) ?? weights.get("*") ?? 0;
    if (weight > bestWeight) {
      best = encoding;
      bestWeight = weight;
    }
  }
  return best;
}
