import { html } from "hono/html";
import type { SurveyKind } from "../../db/schema/surveys";
import { oneLine } from "../../lib/text";
import { type SurveyChoice, surveyUrl } from "../../mail/survey-token";

/** The ratings a kind offers, lowest first: CSAT 1–5, NPS 0–10 (product.md). */
export function ratingsOf(kind: SurveyKind): number[] {
  return kind === "csat" ? [1, 2, 3, 4, 5] : [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
}

export const isRatingOf = (kind: SurveyKind, rating: number) => ratingsOf(kind).includes(rating);

/** The words under the ends of the scale, so a bare row of numbers reads one way. */
const SCALE: Record<SurveyKind, { low: string; high: string }> = {
  csat: { low: "1 = very unsatisfied", high: "5 = very satisfied" },
  nps: { low: "0 = not at all likely", high: "10 = extremely likely" },
};

const MAX_SUBJECT_TOPIC = 150;

export interface SurveyMailInput {
  kind: SurveyKind;
  question: string;
  accountId: string;
  ticketId: string;
  ticketSubject: string;
  inboxName: string;
}

/** The survey email's subject, text and HTML, with one signed link per rating. */
export async function surveyMail(
  env: Pick<Env, "PUBLIC_BASE_URL" | "ENCRYPTION_KEY">,
  input: SurveyMailInput,
) {
  const links = await Promise.all(
    ratingsOf(input.kind).map(async (rating) => {
      const choice: SurveyChoice = { ticketId: input.ticketId, rating };
      return { rating, url: await surveyUrl(env, choice, input.accountId) };
    }),
  );
  const topic = oneLine(input.ticketSubject).slice(0, MAX_SUBJECT_TOPIC);
  const scale = SCALE[input.kind];
  const intro = `Your request "${topic}" was resolved by ${oneLine(input.inboxName)}.`;
  const text = [
    intro,
    "",
    input.question,
    `(${scale.low}, ${scale.high})`,
    "",
    ...links.map((l) => `${l.rating}: ${l.url}`),
    "",
    "Choosing a rating opens a page where you confirm it and may add a comment.",
    "",
  ].join("\n");
  const body = html`<p>${intro}</p>
<p><strong>${input.question}</strong></p>
<p>${links.map((l) => html`<a href="${l.url}" style="display:inline-block;padding:6px 10px;margin:2px;border:1px solid #888;border-radius:4px;text-decoration:none">${String(l.rating)}</a> `)}</p>
<p style="color:#666">${scale.low}, ${scale.high}. Choosing a rating opens a page where you confirm it and may add a comment.</p>`;
  return { subject: `How did we do? ${topic}`, text, html: String(await body) };
}
