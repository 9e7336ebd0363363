/**
 * Scores the bounce reader against the labelled corpus of test/fixtures/bounces/ (issue 27). One
 * module for the Workers test and the `bounces` benchmark, so both judge by the same rules; each
 * brings the files' bytes its own way (Vite in workerd, the file system in Node).
 */
import { parseMail } from "../../src/inbound/parse";
import { readReport } from "../../src/inbound/reports/read-report";

export type ExpectedKind = "hard" | "soft" | "complaint";

export interface ExpectedRecipient {
  address: string;
  kind: ExpectedKind;
  status: string | null;
}

/** One entry of test/fixtures/bounces/manifest.json; its README says how each field was labelled. */
export interface FixtureEntry {
  file: string;
  source: { repo: string; path: string; commit: string };
  licence: string;
  server: string;
  format: "rfc3464" | "plain" | "arf" | "not-a-bounce";
  expected: {
    recognised: boolean;
    recipients: ExpectedRecipient[];
    kind: ExpectedKind | null;
    status: string | null;
  };
  note?: string;
  /** Why no reader of the message text can get it right; such an entry must only report nothing false. */
  known_miss?: string;
  /**
   * Why the service's reader gets this one wrong today, though a reader could. Unlike a known miss
   * it counts in every figure; the per-message test checks it reports nothing false and is still
   * wrong, so the mark goes when the reader improves.
   */
  reader_miss?: string;
}

/** What the reader made of a message: the recipients it would act on (kind not null), lowercased. */
export interface Reading {
  recipients: Array<{ address: string; kind: string }>;
}

export interface Verdict {
  file: string;
  format: FixtureEntry["format"];
  server: string;
  expectedRecognised: boolean;
  knownMiss: boolean;
  recognised: boolean;
  rightRecipients: boolean;
  rightKinds: boolean;
  /** Addresses acted on that the message is not about: on a negative, every one it reported. */
  falseReports: string[];
}

/** The reader as the service runs it on inbound mail; no envelope recipient, so only the text counts. */
export async function readFixture(bytes: Uint8Array): Promise<Reading> {
  const report = await readReport(await parseMail(bytes), null);
  const seen = new Set<string>();
  const recipients = (report?.recipients ?? [])
    .filter((r) => r.kind !== null)
    .map((r) => ({ address: r.address.toLowerCase(), kind: r.kind as string }))
    .filter((r) => !seen.has(r.address) && seen.add(r.address));
  return { recipients };
}

export function judge(entry: FixtureEntry, reading: Reading): Verdict {
  const expected = new Map(entry.expected.recipients.map((r) => [r.address, r.kind]));
  const got = new Map(reading.recipients.map((r) => [r.address, r.kind]));
  const rightRecipients =
    entry.expected.recognised && got.size === expected.size && [...expected.keys()].every((a) => got.has(a));
  return {
    file: entry.file,
    format: entry.format,
    server: entry.server,
    expectedRecognised: entry.expected.recognised,
    knownMiss: entry.known_miss !== undefined,
    recognised: got.size > 0,
    rightRecipients,
    rightKinds: rightRecipients && [...expected].every(([address, kind]) => got.get(address) === kind),
    falseReports: [...got.keys()].filter((a) => !entry.expected.recognised || !expected.has(a)),
  };
}

/** A share in percent, one decimal; 100 when there is nothing to judge. */
const percent = (part: number, whole: number) => (whole === 0 ? 100 : Math.round((part / whole) * 1000) / 10);

export interface Figures {
  messages: number;
  knownMisses: number;
  rfc3464: { judged: number; right: number };
  plain: { judged: number; recognised: number; rightRecipient: number; rightKind: number };
  arf: { judged: number; right: number };
  negatives: number;
  /** Messages with at least one false report, and what was reported for them. */
  falseReports: Array<{ file: string; addresses: string[] }>;
}

/**
 * The figures. Each share counts the messages that expect a report and are not known
 * misses: RFC 3464 "right" is recognised with exactly the expected recipients and each one's kind;
 * plain notices are scored on recognition, recipients and kinds separately. False reports count
 * every message, known misses included.
 */
export function summarise(verdicts: Verdict[]): Figures {
  const judged = (format: Verdict["format"]) =>
    verdicts.filter((v) => v.format === format && v.expectedRecognised && !v.knownMiss);
  const right = (v: Verdict) => v.recognised && v.rightRecipients && v.rightKinds;
  const plain = judged("plain");
  return {
    messages: verdicts.length,
    knownMisses: verdicts.filter((v) => v.knownMiss).length,
    rfc3464: { judged: judged("rfc3464").length, right: judged("rfc3464").filter(right).length },
    plain: {
      judged: plain.length,
      recognised: plain.filter((v) => v.recognised).length,
      rightRecipient: plain.filter((v) => v.rightRecipients).length,
      rightKind: plain.filter((v) => v.rightKinds).length,
    },
    arf: { judged: judged("arf").length, right: judged("arf").filter(right).length },
    negatives: verdicts.filter((v) => !v.expectedRecognised).length,
    falseReports: verdicts
      .filter((v) => v.falseReports.length > 0)
      .map((v) => ({ file: v.file, addresses: v.falseReports })),
  };
}

export interface GoalResult {
  label: string;
  /** Percent for shares, a count for false reports. */
  value: number;
  target: string;
  met: boolean;
}

/** Issue 27's goals: RFC 3464 ≥ 99% right; other notices ≥ 90 / 85 / 80%; no false report. */
export function goals(f: Figures): GoalResult[] {
  const share = (label: string, part: number, whole: number, min: number): GoalResult => {
    const value = percent(part, whole);
    return { label: `${label} (${part}/${whole})`, value, target: `>= ${min}%`, met: value >= min };
  };
  return [
    share("RFC 3464 reports right", f.rfc3464.right, f.rfc3464.judged, 99),
    share("plain notices recognised", f.plain.recognised, f.plain.judged, 90),
    share("plain notices: right recipient", f.plain.rightRecipient, f.plain.judged, 85),
    share("plain notices: right hard/soft", f.plain.rightKind, f.plain.judged, 80),
    {
      label: "false reports (messages)",
      value: f.falseReports.length,
      target: "0",
      met: f.falseReports.length === 0,
    },
  ];
}

/** The figures as lines for a log: each goal, the ARF share, and every false report. */
export function describe(f: Figures): string[] {
  return [
    `${f.messages} messages (${f.negatives} that must report nothing, ${f.knownMisses} known misses)`,
    ...goals(f).map((g) => `${g.met ? "PASS" : "MISS"}  ${g.label}: ${g.value} (goal ${g.target})`),
    `info  ARF complaints right (${f.arf.right}/${f.arf.judged}): ${percent(f.arf.right, f.arf.judged)}`,
    ...f.falseReports.map((r) => `false report: ${r.file} -> ${r.addresses.join(", ")}`),
  ];
}
