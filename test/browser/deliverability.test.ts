import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { deliverInbound, fromHeaderAddress } from "../../scripts/lib/inbound";
import { api, connectChromium, screenshot, signedInPage, workerUrl } from "./support/pages";

const { chromium } = inject("browser");

const FIXTURE = join(import.meta.dirname, "..", "fixtures", "inbound", "postfix-dsn-hard.eml");

/** Asks `check` again every 250 ms until it answers something: the queue sends after the response. */
async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

type MailReport = Record<string, string | null>;

describe.skipIf(!chromium)("the Deliverability page in a real Chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await connectChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("lists a bounce delivered to an email's bounce address as GET /v1/mail-reports does, and shows its raw message", async () => {
    const recipient = `gone-${crypto.randomUUID().slice(0, 8)}@example.net`;
    const sent = await api("POST", "/v1/emails", {
      from: "Acme <hello@example.com>",
      to: recipient,
      subject: "Your receipt",
      text: "Thank you.",
    });
    expect(sent.status).toBe(200);
    const emailId = ((await sent.json()) as { id: string }).id;
    // The recipient's copy, as the development mailbox keeps it, carries its own bounce address.
    const copy = await eventually(async () => {
      const { data } = (await (await fetch(`${workerUrl}/_dev/mailbox.json`)).json()) as {
        data: Array<{ id: string; return_path: string; raw: string }>;
      };
      return data.find((m) => m.id === emailId);
    });
    await eventually(async () => {
      const email = (await (await api("GET", `/v1/emails/${emailId}`)).json()) as { status: string };
      return email.status === "sent" ? email : undefined;
    });
    const bounce = readFileSync(FIXTURE, "utf8")
      .replaceAll("{{BOUNCE}}", copy.return_path)
      .replaceAll("{{RECIPIENT}}", recipient)
      .replaceAll("{{SENDER}}", "hello@example.com")
      .replaceAll("{{ORIGINAL_ID}}", /^Message-ID:\s*(<[^>]+>)/im.exec(copy.raw)?.[1] ?? "")
      .replaceAll("{{ID}}", crypto.randomUUID());
    const delivered = await deliverInbound({
      baseUrl: workerUrl,
      from: fromHeaderAddress(bounce) ?? "",
      to: copy.return_path,
      raw: bounce,
    });
    expect(delivered).toEqual({ outcome: "accepted" });

    const listed = (await (await api("GET", `/v1/mail-reports?email_id=${emailId}`)).json()) as {
      data: MailReport[];
    };
    expect(listed.data).toHaveLength(1);
    const report = listed.data[0] as MailReport;
    expect(report).toMatchObject({ kind: "bounce", recipient, action: "suppressed" });

    const { page, errors } = await signedInPage(browser, "agent");
    await page.goto(`${workerUrl}/dashboard`);
    await page.getByRole("link", { name: "Deliverability", exact: true }).click();
    await page.getByRole("heading", { name: "Deliverability", level: 1 }).waitFor();
    await page.getByLabel("Email id").fill(emailId);
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL(/email_id=/);

    // The row says what the API says, column by column.
    const table = page.locator("table.reports");
    const headers = await table.locator("thead th").allTextContents();
    const rows = table.locator("tbody tr");
    expect(await rows.count()).toBe(1);
    const cells = await rows.first().locator("td").allTextContents();
    const row = Object.fromEntries(headers.map((name, i) => [name, cells[i]]));
    const none = (value: string | null | undefined) => value ?? "none";
    expect(row).toEqual({
      Time: expect.any(String),
      Kind: report.kind,
      Recipient: report.recipient,
      // product.md's names, whichever the API answers with at the time.
      Severity: none(report.severity ?? report.bounce_type),
      Status: none(report.status ?? report.status_code),
      Reply: none(report.reply_code),
      Action: report.action,
      Email: report.email_id,
      Server: none(report.reporting_mta),
      Diagnostic: none(report.diagnostic),
    });
    const link = rows.first().locator(`a[href="/dashboard/deliverability/reports/${report.id}"]`);
    expect(await link.locator("time").getAttribute("datetime")).toBe(report.created_at);
    // The bounce's day has a bounce rate in the chart (charts.test.ts compares it with the report).
    const day = `${report.created_at?.slice(0, 10)}T00:00:00.000Z`;
    const point = page.locator(`#bounce-rate-chart circle[data-start="${day}"]`);
    expect(Number(await point.getAttribute("data-value"))).toBeGreaterThan(0);
    await screenshot(page, "deliverability");

    await link.click();
    await page.getByRole("heading", { name: "Mail report" }).waitFor();
    const raw = (await page.locator("pre").textContent()) ?? "";
    expect(raw).toContain(`Final-Recipient: rfc822; ${recipient}`);
    expect(raw).toContain(`To: ${copy.return_path}`);
    const download = await page.request.get(`${workerUrl}/dashboard/deliverability/reports/${report.id}/raw`);
    expect(download.status()).toBe(200);
    expect(download.headers()["content-disposition"]).toBe(`attachment; filename="${report.id}.txt"`);
    expect(await download.text()).toContain(`Final-Recipient: rfc822; ${recipient}`);
    await screenshot(page, "deliverability-report");

    expect(errors).toEqual([]);
  });
});
