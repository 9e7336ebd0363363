import type { Header } from "postal-mime";

const valuesOf = (headers: Header[], key: string) => headers.filter((h) => h.key === key).map((h) => h.value);

/** A header's first token, lowercased: `auto-replied; comment` → `auto-replied`. */
const tokenOf = (value: string) => value.split(/[;(]/)[0]?.trim().toLowerCase() ?? "";

/**
 * Whether a machine sent this (RFC 3834 and the conventions before it): `Auto-Submitted` other
 * than `no`, `Precedence: bulk|list|junk`, `X-Autoreply`, a delivery or feedback report
 * (`multipart/report`), or the null envelope sender of a bounce. Nothing answers such mail
 * automatically, and it opens no ticket (see receive.ts).
 */
export function isAutomatic(headers: Header[], mailFrom: string): boolean {
  const autoSubmitted = valuesOf(headers, "auto-submitted").some((v) => tokenOf(v) !== "no");
  const precedence = valuesOf(headers, "precedence").some((v) =>
    ["bulk", "list", "junk"].includes(tokenOf(v)),
  );
  const autoreply = valuesOf(headers, "x-autoreply").some((v) => tokenOf(v) !== "no");
  const report = valuesOf(headers, "content-type").some((v) => tokenOf(v) === "multipart/report");
  const nullSender = mailFrom.trim() === "" || mailFrom.trim() === "<>";
  return autoSubmitted || precedence || autoreply || report || nullSender;
}

const ADDRESS = /[^\s<>()[\]"',;:@]+@[^\s<>()[\]"',;:@]+/g;

/** The addresses `X-Loop` headers name, lowercased: our own among them means the mail came back. */
export const loopAddresses = (headers: Header[]) =>
  valuesOf(headers, "x-loop")
    .flatMap((v) => v.match(ADDRESS) ?? [])
    .map((a) => a.toLowerCase());
