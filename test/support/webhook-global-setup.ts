import type { TestProject } from "vitest/node";
import "./provided-context";
import { WebhookReceiver } from "./webhook-receiver";

/** Starts the loopback webhook receiver; vitest.config.ts binds its URL as WEBHOOK_TEST_URL. */
export default async function setup(project: TestProject) {
  const receiver = new WebhookReceiver();
  project.provide("webhookUrl", await receiver.listen());
  return () => receiver.close();
}
