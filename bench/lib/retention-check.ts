/**
 * Whether the retention job archived what the seed wrote (bench/lib/retention-seed.ts), read as a
 * client reads it: the archived days listed by GET /v1/emails/archives hold the seeded days and
 * counts, and the largest day downloaded and gunzipped whole has one line per email of the day.
 * Answers the problems found (none when it is right).
 */
import { gunzipSync } from "node:zlib";
import { dayLabel } from "../../src/lib/email-retention";
import { type Answer, callOk, describe } from "./api";
import type { RetentionWorkspace } from "./retention-seed";
import { retried } from "./retried";
import type { BenchContext } from "./types";
import { UNCOUNTED } from "./work-cost";

interface Archived {
  date: string;
  emails: number;
  size: number;
  parts: number;
  download_url: string;
}

interface Line {
  id?: string;
  recipients?: unknown[];
  events?: unknown[];
}

async function download(ctx: BenchContext, token: string, path: string) {
  const response = await fetch(`${ctx.baseUrl}${path}`, {
    headers: { Authorization: `Bearer ${token}`, ...UNCOUNTED },
    signal: AbortSignal.timeout(60_000),
  });
  const body = new Uint8Array(await response.arrayBuffer());
  return { status: response.status, length: response.headers.get("content-length"), body };
}

/** Why the day's file is not one whole, well-formed line per email of the day, or nothing. */
function checkLines(text: string, day: Archived, expected: number): string[] {
  const lines = text.split("\n").filter((line) => line !== "");
  const problems: string[] = [];
  if (lines.length !== expected)
    problems.push(`${day.date}'s archive has ${lines.length} lines, the day had ${expected} emails`);
  const ids = new Set<string>();
  for (const line of lines) {
    const email = JSON.parse(line) as Line;
    ids.add(String(email.id));
    if (email.recipients?.length !== 1 || email.events?.length !== 2) {
      problems.push(
        `${day.date}'s line for ${email.id} lacks its recipient or its two events: ${line.slice(0, 300)}`,
      );
      break;
    }
  }
  if (ids.size !== lines.length)
    problems.push(`${day.date}'s archive holds ${lines.length - ids.size} emails twice`);
  return problems;
}

export interface ArchiveCheck {
  problems: string[];
  /** Bytes of the downloaded day's NDJSON before gzip, per line (0 when it could not be read). */
  lineBytes: number;
}

export async function checkArchives(ctx: BenchContext, w: RetentionWorkspace): Promise<ArchiveCheck> {
  const as = { ...ctx, token: w.token };
  const list = await retried(() => callOk<{ data: Archived[] }>(as, "GET", "/v1/emails/archives?limit=100"));
  const listed = new Map(list.data.map((day) => [day.date, day]));
  const problems: string[] = [];
  for (const [day, count] of w.perDay) {
    const archived = listed.get(dayLabel(day));
    if (archived?.emails !== count)
      problems.push(
        `GET /v1/emails/archives lists ${dayLabel(day)} with ${archived?.emails} emails, the seed wrote ${count}`,
      );
  }
  if (listed.size !== w.perDay.size)
    problems.push(`GET /v1/emails/archives lists ${listed.size} days, the seed wrote ${w.perDay.size}`);

  const [largest] = [...w.perDay].sort((a, b) => b[1] - a[1]);
  const day = largest && listed.get(dayLabel(largest[0]));
  if (!largest || !day) return { problems: [...problems, "no archived day to download"], lineBytes: 0 };
  const file = await retried(() => download(ctx, w.token, day.download_url));
  if (file.status !== 200) {
    const answer: Answer = { status: file.status, text: new TextDecoder().decode(file.body) };
    return { problems: [...problems, `GET ${day.download_url} answered ${describe(answer)}`], lineBytes: 0 };
  }
  if (Number(file.length) !== file.body.byteLength || file.body.byteLength !== day.size)
    problems.push(
      `GET ${day.download_url} sent ${file.body.byteLength} bytes, Content-Length ${file.length}, listed size ${day.size}`,
    );
  let text: string;
  try {
    text = gunzipSync(file.body).toString("utf8");
  } catch (error) {
    return {
      problems: [...problems, `${day.date}'s archive does not gunzip: ${(error as Error).message}`],
      lineBytes: 0,
    };
  }
  problems.push(...checkLines(text, day, largest[1]));
  return { problems, lineBytes: Buffer.byteLength(text) / largest[1] };
}
