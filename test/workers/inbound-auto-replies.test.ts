import { describe, expect, it } from "vitest";
import gmailVacation from "../fixtures/inbound/gmail-vacation.eml?raw";
import precedenceAutoReply from "../fixtures/inbound/precedence-auto-reply.eml?raw";
import precedenceBulk from "../fixtures/inbound/precedence-bulk.eml?raw";
import xAutoResponseSuppress from "../fixtures/inbound/x-auto-response-suppress.eml?raw";
import xAutoreply from "../fixtures/inbound/x-autoreply.eml?raw";
import xAutorespond from "../fixtures/inbound/x-autorespond.eml?raw";
import xMailerVacation from "../fixtures/inbound/x-mailer-vacation.eml?raw";
import { callJson } from "./helpers";
import { deliver, FIXTURES, fill, inboundWorkspace, messagesOf, ticketsOf } from "./inbound-helpers";

/** Real responders' answers, one convention each (test/fixtures/inbound/). */
const RESPONDERS: Array<[string, string]> = [
  ["Auto-Submitted: auto-replied (Gmail's vacation responder)", gmailVacation],
  ["Precedence: auto_reply", precedenceAutoReply],
  ["Precedence: bulk", precedenceBulk],
  ["X-Autorespond: yes", xAutorespond],
  ["X-Autoreply: yes", xAutoreply],
  ["X-Auto-Response-Suppress: All (Exchange's automatic reply)", xAutoResponseSuppress],
  ["X-Mailer: vacation", xMailerVacation],
];

/** A workspace with one ticket opened by mail (Message-ID `<ask@mail.example.com>`), then resolved. */
async function resolvedTicket() {
  const { ws, inbox } = await inboundWorkspace();
  await deliver(fill(FIXTURES.plainText, { TO: inbox.emailAddress, ID: "ask" }), { to: inbox.emailAddress });
  const [ticket] = await ticketsOf(ws.token);
  await callJson("POST", `/v1/tickets/${ticket?.id}/manage`, {
    token: ws.token,
    body: { action: "resolve" },
  });
  return { ws, inbox, ticketId: ticket?.id as string };
}

const PARENT = "<ask@mail.example.com>";

describe("automatic replies to a resolved ticket", () => {
  it.each(RESPONDERS)("%s is kept on the ticket, flagged, and does not reopen it", async (_, fixture) => {
    const { ws, inbox, ticketId } = await resolvedTicket();
    const raw = fill(fixture, { TO: inbox.emailAddress, IN_REPLY_TO: PARENT, REFERENCES: PARENT });
    expect(await deliver(raw, { to: inbox.emailAddress })).toEqual({ outcome: "accepted" });
    expect((await ticketsOf(ws.token))[0]).toMatchObject({
      id: ticketId,
      status: "resolved",
      message_count: 2,
    });
    expect((await messagesOf(ws.token, ticketId)).at(-1)).toMatchObject({ auto_submitted: true });
  });

  it.each([
    ["Precedence: list"],
    ["Precedence: junk"],
    ["X-Auto-Response-Suppress: OOF, AutoReply"],
    ["X-Mailer: Vacation Autoresponder 3.1"],
  ])("%s counts as automatic too", async (header) => {
    const { ws, inbox } = await resolvedTicket();
    const raw = `${header}\r\n${fill(FIXTURES.gmail, { TO: inbox.emailAddress, INBOX: inbox.emailAddress, IN_REPLY_TO: PARENT, REFERENCES: PARENT })}`;
    await deliver(raw, { to: inbox.emailAddress });
    expect((await ticketsOf(ws.token))[0]).toMatchObject({ status: "resolved", message_count: 2 });
  });

  it("a person's reply reopens it, even one whose client asks for no read receipts or names its mailer", async () => {
    const { ws, inbox, ticketId } = await resolvedTicket();
    // Outlook asks for no delivery or read receipts on ordinary mail: not an automatic answer.
    const raw = `X-Auto-Response-Suppress: DR, RN, NRN\r\nX-Mailer: Microsoft Outlook 16.0\r\n${fill(
      FIXTURES.gmail,
      { TO: inbox.emailAddress, INBOX: inbox.emailAddress, IN_REPLY_TO: PARENT, REFERENCES: PARENT },
    )}`;
    expect(await deliver(raw, { to: inbox.emailAddress })).toEqual({ outcome: "accepted" });
    expect((await ticketsOf(ws.token))[0]).toMatchObject({ id: ticketId, status: "open", message_count: 2 });
    expect((await messagesOf(ws.token, ticketId)).at(-1)).toMatchObject({ auto_submitted: false });
  });
});
