import type { Scenario } from "../lib/types";
import { apiBaseline } from "./api-baseline";
import { automationEnrollments } from "./automation-enrollments";
import { bigLists } from "./big-lists";
import { bounces } from "./bounces";
import { bundle } from "./bundle";
import { campaignSend } from "./campaign-send";
import { campaignWebhooks } from "./campaign-webhooks";
import { capacity } from "./capacity";
import { dashboardPages } from "./dashboard-pages";
import { emailRetention } from "./email-retention";
import { emailSend } from "./email-send";
import { globalReads } from "./global";
import { hostileHtmlScenario } from "./hostile-html";
import { inboundMail } from "./inbound-mail";
import { reports } from "./reports";
import { scheduledDrain } from "./scheduled-drain";
import { search } from "./search";
import { smtpRelay } from "./smtp-relay";
import { templateSend } from "./template-send";
import { ticketsList } from "./tickets-list";
import { webhookDispatch } from "./webhook-dispatch";

/** Every benchmark, run in this order. A new scenario is one file in this folder and one line here. */
export const SCENARIOS: readonly Scenario[] = [
  apiBaseline,
  emailSend,
  templateSend,
  scheduledDrain,
  ticketsList,
  search,
  dashboardPages,
  smtpRelay,
  webhookDispatch,
  inboundMail,
  campaignSend,
  campaignWebhooks,
  automationEnrollments,
  bigLists,
  hostileHtmlScenario,
  bounces,
  reports,
  emailRetention,
  capacity,
  globalReads,
  bundle,
];
