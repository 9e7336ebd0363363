import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, connectChromium, screenshot, signedInPage, workerUrl } from "./support/pages";

type Invitation = { id: string; email: string; status: string; invited_by: string };

describe.skipIf(!inject("browser").chromium)("the Team page in a real Chromium", () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await connectChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("invites a person, lists the pending invitation, then revokes it", async () => {
    const { page, errors } = await signedInPage(browser, "admin");
    const email = `invitee-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await page.goto(`${workerUrl}/dashboard/team`);
    expect(await page.getByRole("heading", { name: "Team" }).count()).toBe(1);

    const invite = page.getByRole("form", { name: "Invite a person" });
    await invite.getByLabel("Email").fill(email);
    await invite.getByLabel("Role").selectOption("admin");
    await invite.getByRole("button", { name: "Invite" }).click();
    await expect.poll(() => page.getByRole("status").textContent()).toBe("Invitation sent.");

    const pending = page.getByRole("region", { name: "Pending invitations" });
    const row = pending.getByRole("row", { name: email });
    expect(await row.count()).toBe(1);
    expect(await row.textContent()).toContain("admin@example.com");
    await screenshot(page, "team");

    // The API sees it, invited by the signed-in admin (a user id, not a key).
    const list = (await (await api("GET", "/v1/invitations?status=pending")).json()) as {
      data: Invitation[];
    };
    const invitation = list.data.find((i) => i.email === email);
    expect(invitation?.invited_by).toMatch(/^usr_/);

    await row.getByRole("button", { name: "Revoke" }).click();
    await expect
      .poll(() => page.getByRole("status").textContent())
      .toBe("Invitation revoked: its link no longer works.");
    expect(await pending.getByRole("row", { name: email }).count()).toBe(0);
    const after = (await (await api("GET", `/v1/invitations?status=revoked`)).json()) as {
      data: Invitation[];
    };
    expect(after.data.some((i) => i.email === email)).toBe(true);
    expect(errors).toEqual([]);
  });
});
