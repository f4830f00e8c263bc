/**
 * A multipart message as raw bytes, written out the way the email tests spell one by hand: the message's headers, then
 * each part (its own headers, a blank line, its body) behind the boundary "b", then the closing boundary.
 */
export function multipartMail(headers: string[], parts: string[][], type = "multipart/mixed"): Buffer {
  return Buffer.from(
    [
      ...headers,
      "MIME-Version: 1.0",
      `Content-Type: ${type}; boundary="b"`,
      "",
      ...parts.flatMap((part) => ["--b", ...part]),
      "--b--",
      "",
    ].join("\r\n"),
  );
}
