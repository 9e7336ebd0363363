import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { dkimVerify } from "mailauth/lib/dkim/verify.js";
import nodemailer from "nodemailer";
import { Resend } from "resend";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePorts } from "../../bench/lib/port";

/**
 * The README's commands, for real, in a fresh copy of the repository (its node_modules linked):
 * `npm start` prepares and serves, `npm run bootstrap` works while it serves, and
 * `npm run keys:revoke` takes effect at the next request, and the SMTP relay it runs beside the API
 * accepts mail.
 */
const ROOT = new URL("../..", import.meta.url).pathname;
const execFileAsync = promisify(execFile);
let workdir: string;
let port: number;
let smtpPort: number;
let server: ChildProcess | null = null;
let output = "";

function copyRepository(): string {
  const dir = mkdtempSync(join(tmpdir(), "fresh-clone-"));
  const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], { cwd: ROOT })
    .toString()
    .split("\n")
    .filter((file) => file && existsSync(join(ROOT, file)));
  for (const file of files) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    cpSync(join(ROOT, file), join(dir, file));
  }
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  return dir;
}

async function startServer(): Promise<string> {
  output = "";
  server = spawn("npm", ["start"], {
    cwd: workdir,
    env: { ...process.env, PORT: String(port), SMTP_PORT: String(smtpPort) },
    detached: true,
  });
  server.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  server.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const deadline = Date.now() + 150_000;
  while (!/API key:\s+sk_\w+/.test(output) || !/smtp-relay: listening/.test(output)) {
    if (Date.now() > deadline || server.exitCode !== null)
      throw new Error(`npm start did not come up:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return output;
}

async function stopServer(): Promise<void> {
  if (!server?.pid || server.exitCode !== null) return;
  const exited = new Promise((resolve) => server?.once("exit", resolve));
  process.kill(-server.pid, "SIGTERM");
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  if (server.exitCode === null) process.kill(-server.pid, "SIGKILL");
}

/**
 * A command in the copy, awaited rather than run synchronously: a synchronous run blocks this
 * process for seconds, during which the server closes the idle kept-alive connection unseen, and
 * the next request picked the dead socket ("other side closed") on a busy machine.
 */
async function run(command: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  const { stdout } = await execFileAsync(command, args, { cwd: workdir, env: { ...process.env, ...env } });
  return stdout;
}

const npmRun = (args: string[]) => run("npm", ["run", "--silent", ...args], { PORT: String(port) });

const api = (path: string, token?: string, init: RequestInit = {}) =>
  fetch(`http://127.0.0.1:${port}${path}`, {
    ...init,
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(init.headers ?? {}) },
  });

/**
 * Follows a sign-in link as a browser would: its page, then the button's same-origin POST; the
 * session cookie (named `session` on plain-http loopback in development) then shows who is in.
 */
async function expectSignIn(link: string, email: string) {
  const path = new URL(link).pathname;
  const page = await api(path);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain(email);
  const signedIn = await api(path, undefined, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: `http://127.0.0.1:${port}` },
  });
  expect(signedIn.status).toBe(303);
  const cookie = (signedIn.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  expect(cookie).toMatch(/^session=[A-Za-z0-9_-]{43}$/);
  expect(await (await api("/login", undefined, { headers: { Cookie: cookie } })).text()).toContain(
    `as ${email}`,
  );
}

beforeAll(async () => {
  workdir = copyRepository();
  [port, smtpPort] = (await freePorts(2)) as [number, number];
}, 60_000);

afterAll(async () => {
  await stopServer();
  if (workdir) rmSync(workdir, { recursive: true, force: true });
}, 30_000);

describe("npm start on a fresh copy", () => {
  let token = "";
  let accountId = "";

  it("applies migrations, creates a workspace, prints its key and serves the API", async () => {
    const printed = await startServer();
    expect(printed).toContain("Wrote .dev.vars with fresh secrets.");
    expect(printed).toContain("Created a development workspace.");
    // Every migration of every database, recorded where wrangler's own command looks for them.
    for (const binding of ["DIRECTORY", "DB", "DB_2", "LOGS"])
      expect(printed).toMatch(
        new RegExp(`Local ${binding}: applied \\d+ migrations?, to \\d{4}_\\w+\\.sql\\.`),
      );
    const listed = await run("npx", ["wrangler", "d1", "migrations", "list", "DB_2", "--local"], {
      CI: "true",
    });
    expect(listed).toContain("No migrations to apply");
    expect(printed).toContain(`curl -H "Authorization: Bearer sk_`);
    token = /API key:\s+(sk_\w+)/.exec(printed)?.[1] ?? "";
    accountId = /account:\s+(acc_\w+)/.exec(printed)?.[1] ?? "";
    // The first workspace of a fresh copy goes to the first shard (none holds any yet).
    expect(printed).toMatch(/account:\s+acc_\w+\s+\(in shard DB\)/);

    expect(await (await api("/health")).json()).toEqual({ status: "ok" });
    const accounts = (await (await api("/v1/accounts", token)).json()) as { data: Array<{ id: string }> };
    expect(accounts.data.map((a) => a.id)).toEqual([accountId]);

    // The workspace has a verified domain, so a newcomer can make an inbox (and send) at once.
    expect(printed).toMatch(/Domain:\s+example\.com/);
    const inbox = await api("/v1/inboxes", token, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: "Support", email_address: "support@example.com" }),
    });
    expect(inbox.status).toBe(201);
    expect(await inbox.json()).toMatchObject({ connection_id: expect.stringMatching(/^con_/) });
  }, 180_000);

  it("prints a sign-in link for the workspace's owner that signs in once", async () => {
    const link = /sign in:\s+(http:\/\/\S+)/.exec(output)?.[1] ?? "";
    expect(link).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/login/[A-Za-z0-9_-]{43}$`));
    await expectSignIn(link, "owner@example.com");
    const mailbox = await api("/_dev/mailbox.json");
    expect(mailbox.status).toBe(200);
    expect(await mailbox.json()).toEqual({ data: expect.any(Array) });
  }, 60_000);

  it("bootstraps another workspace while serving, in the other shard", async () => {
    const lines = (await npmRun(["bootstrap", "--", "--json", "--plan", "pro", "--name", "Second"]))
      .trim()
      .split("\n");
    const created = JSON.parse(lines.at(-1) ?? "") as {
      account_id: string;
      key_id: string;
      token: string;
      login_url: string;
    };
    expect(created).toEqual({
      account_id: expect.stringMatching(/^acc_/),
      // DB holds the development workspace: the second goes to DB_2, and is served from there.
      shard: "DB_2",
      key_id: expect.stringMatching(/^key_/),
      token: expect.stringMatching(/^sk_[0-9A-Za-z]{49}$/),
      user_id: expect.stringMatching(/^usr_/),
      login_url: expect.stringMatching(
        new RegExp(`^http://127\\.0\\.0\\.1:${port}/login/[A-Za-z0-9_-]{43}$`),
      ),
    });
    await expectSignIn(created.login_url, "owner@example.com");
    const res = await api(`/v1/accounts/${created.account_id}`, created.token);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ name: "Second", plan: "pro" });
  }, 60_000);

  it("links tickets to the port it serves on ($PORT), not wrangler.toml's 8787", async () => {
    const post = (path: string, body: unknown) =>
      api(path, token, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    const inbox = (await (
      await post("/v1/inboxes", { name: "Support", email_address: "port-check@example.com" })
    ).json()) as { id: string };
    const ticket = (await (
      await post("/v1/tickets", { inbox_id: inbox.id, customer: { email: "ada@example.com" }, subject: "Hi" })
    ).json()) as { public_url: string };
    expect(ticket.public_url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/portal/tickets/shr_`));
    expect((await fetch(ticket.public_url)).status).toBe(200);
  }, 60_000);

  it("moves a workspace to the other shard with npm run workspace:move, answering the same after", async () => {
    const lines = (await npmRun(["bootstrap", "--", "--json", "--name", "Moving"])).trim().split("\n");
    const moving = JSON.parse(lines.at(-1) ?? "") as { account_id: string; token: string; shard: string };
    const customer = await api("/v1/customers", moving.token, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "kept@example.com", name: "Kept" }),
    });
    expect(customer.status).toBe(201);
    const before = await (await api("/v1/customers", moving.token)).json();
    const to = moving.shard === "DB" ? "DB_2" : "DB";
    // The real command against the running server: freeze, copy, check, switch, clean (about a minute).
    const printed = await npmRun(["workspace:move", "--", moving.account_id, to]);
    expect(printed).toContain("done");
    const listed = await api("/v1/customers", moving.token);
    expect(await listed.json()).toEqual(before);
    const named = await run(
      "npx",
      [
        "wrangler",
        "d1",
        "execute",
        "DIRECTORY",
        "--local",
        "--json",
        "--command",
        `SELECT shard FROM workspaces WHERE account_id = '${moving.account_id}'`,
      ],
      { CI: "true" },
    );
    expect(JSON.parse(named.slice(named.indexOf("[")))[0].results).toEqual([{ shard: to }]);
    const after = await api("/v1/customers", moving.token, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "after@example.com" }),
    });
    expect(after.status).toBe(201);
  }, 240_000);

  it("revokes a key with npm run keys:revoke, refused at the next request", async () => {
    const created = (await (
      await api("/v1/keys", token, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ name: "short-lived", permission: "read" }),
      })
    ).json()) as { id: string; token: string };
    expect((await api("/v1/accounts", created.token)).status).toBe(200);
    expect(await npmRun(["keys:revoke", "--", created.id])).toContain("Revoked");
    expect((await api("/v1/accounts", created.token)).status).toBe(401);
  }, 60_000);

  it("sends with Resend's own SDK, DKIM-signed as the published record says", async () => {
    const lines = (await npmRun(["bootstrap", "--", "--json", "--domain", "e2e.test"])).trim().split("\n");
    const created = JSON.parse(lines.at(-1) ?? "") as { token: string };
    const resend = new Resend(created.token, { baseUrl: `http://127.0.0.1:${port}/v1` } as never);
    const { data, error } = await resend.emails.send({
      from: "E2E <hello@e2e.test>",
      to: "ada@example.com",
      bcc: "audit@example.com",
      subject: "Sent with the Resend SDK",
      html: "<p>Hello from the SDK</p>",
      attachments: [{ filename: "note.txt", content: Buffer.from("attached bytes") }],
    });
    expect(error).toBeNull();
    expect(data?.id).toMatch(/^eml_/);

    let status = "";
    for (let i = 0; i < 60 && status !== "sent"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      status = ((await (await api(`/v1/emails/${data?.id}`, created.token)).json()) as { status: string })
        .status;
    }
    expect(status).toBe("sent");

    const raw = await (await api(`/v1/emails/${data?.id}/content`, created.token)).text();
    expect(raw).toContain("note.txt");
    expect(raw.toLowerCase()).not.toContain("audit@example.com");
    const connections = (await (await api("/v1/connections", created.token)).json()) as {
      data: Array<{ dns_records: Array<{ purpose: string; name: string; value: string }> }>;
    };
    const dkim = connections.data[0]?.dns_records.find((r) => r.purpose === "dkim");
    const verified = await dkimVerify(raw, {
      resolver: async (name: string, type: string) => {
        if (type === "TXT" && name === dkim?.name) return [[dkim.value]];
        throw Object.assign(new Error(`no ${type} record for ${name}`), { code: "ENOTFOUND" });
      },
    });
    expect(verified.results[0]?.status.result).toBe("pass");
  }, 90_000);

  it("relays SMTP on $SMTP_PORT into the API: STARTTLS, user apikey, the key as password", async () => {
    const lines = (await npmRun(["bootstrap", "--", "--json", "--domain", "relay-e2e.test"]))
      .trim()
      .split("\n");
    const created = JSON.parse(lines.at(-1) ?? "") as { token: string };
    const relay = nodemailer.createTransport({
      host: "127.0.0.1",
      port: smtpPort,
      requireTLS: true,
      auth: { user: "apikey", pass: created.token },
      // The development certificate npm start generated on first start.
      tls: { ca: readFileSync(join(workdir, "smtp-relay", ".certs", "cert.pem")), servername: "localhost" },
    });
    const info = await relay.sendMail({
      from: "hello@relay-e2e.test",
      to: "ada@example.com",
      bcc: "audit@example.com",
      subject: "Through the relay",
      text: "Hello over SMTP",
    });
    const id = /queued as (eml_\w+)/.exec(info.response)?.[1];
    expect(id).toBeDefined();
    const email = (await (await api(`/v1/emails/${id}`, created.token)).json()) as Record<string, unknown>;
    expect(email).toMatchObject({ subject: "Through the relay", bcc: ["audit@example.com"] });
  }, 60_000);

  it("reuses the development workspace on the next start, connecting its domain if it has none", async () => {
    // Only the minute cron starts a scheduled campaign, and `wrangler dev` never fires it by itself:
    // one due across the restart shows `npm start` firing it (at once when it is ready again).
    const json = { "Content-Type": "application/json" };
    const post = async (path: string, body: unknown) =>
      (await (
        await api(path, token, { method: "POST", headers: json, body: JSON.stringify(body) })
      ).json()) as {
        id: string;
      };
    const group = await post("/v1/contact-groups", { name: "Across a restart" });
    await post(`/v1/contact-groups/${group.id}/members`, { members: [{ email: "reader@example.com" }] });
    const campaign = await post("/v1/campaigns", {
      name: "Across a restart",
      from: "News <news@example.com>",
      subject: "News",
      html: '<p>Hi</p><a href="{{unsubscribe_url}}">Unsubscribe</a>',
      contact_group_ids: [group.id],
    });
    const scheduledAt = new Date(Date.now() + 2_000).toISOString();
    expect(await post(`/v1/campaigns/${campaign.id}/send`, { scheduled_at: scheduledAt })).toMatchObject({
      status: "scheduled",
    });
    const campaignStatus = async () =>
      ((await (await api(`/v1/campaigns/${campaign.id}`, token)).json()) as { status: string }).status;

    // As a workspace saved before the development domain existed: without the connection.
    const inboxes = (await (await api("/v1/inboxes", token)).json()) as { data: Array<{ id: string }> };
    for (const inbox of inboxes.data) await api(`/v1/inboxes/${inbox.id}`, token, { method: "DELETE" });
    const connections = async () =>
      ((await (await api("/v1/connections", token)).json()) as { data: Array<Record<string, string>> }).data;
    for (const connection of await connections()) {
      expect((await api(`/v1/connections/${connection.id}`, token, { method: "DELETE" })).status).toBe(200);
    }
    await stopServer();
    const printed = await startServer();
    expect(printed).not.toContain("Created a development workspace.");
    expect(printed).toContain("Local DB_2: up to date.");
    expect(printed).toContain(token);
    expect((await api("/v1/accounts", token)).status).toBe(200);
    expect(await connections()).toEqual([
      expect.objectContaining({ domain: "example.com", status: "verified" }),
    ]);
    // A fresh link each start, for the same owner.
    await expectSignIn(/sign in:\s+(http:\/\/\S+)/.exec(printed)?.[1] ?? "", "owner@example.com");

    let status = await campaignStatus();
    for (let waited = 0; status === "scheduled" && waited < 20_000; waited += 500) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      status = await campaignStatus();
    }
    expect(status).not.toBe("scheduled");
  }, 180_000);
});
