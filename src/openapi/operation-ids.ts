/**
 * Every /v1 operation's `operationId`, the name SDK generators give its method. Kept in one table,
 * not on each route, so the names follow one scheme and can be read side by side: a verb (list,
 * get, create, update, delete, or the action's own: send, cancel, pause...) then the resource,
 * plural for lists. These are a published interface: a generated client's method names depend on
 * them, so an entry is renamed only as a breaking change. The OpenAPI test fails on a /v1
 * operation missing here, and on an entry no route has.
 */
/** The key of OPERATION_IDS for one operation: "GET /v1/tickets". */
export const operationKey = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

export const OPERATION_IDS: Readonly<Record<string, string>> = {
  "GET /v1/openapi.json": "getOpenApiDocument",

  "GET /v1/keys": "listApiKeys",
  "POST /v1/keys": "createApiKey",

  "GET /v1/accounts": "listAccounts",
  "GET /v1/accounts/{id}": "getAccount",
  "PATCH /v1/accounts/{id}": "updateAccount",
  "GET /v1/accounts/{id}/usage": "getAccountUsage",
  "GET /v1/accounts/{id}/request-logs": "listRequestLogs",
  "GET /v1/accounts/{id}/smtp-logs": "listSmtpLogs",
  "GET /v1/accounts/{id}/events": "streamAccountEvents",

  "GET /v1/users": "listUsers",
  "GET /v1/users/{id}": "getUser",
  "PATCH /v1/users/{id}": "updateUser",
  "DELETE /v1/users/{id}": "deleteUser",

  "GET /v1/members": "listMembers",
  "POST /v1/members": "createMember",

  "GET /v1/invitations": "listInvitations",
  "POST /v1/invitations": "createInvitation",
  "DELETE /v1/invitations/{id}": "deleteInvitation",
  "POST /v1/invitations/{id}/resend": "resendInvitation",

  "GET /v1/connections": "listConnections",
  "POST /v1/connections": "createConnection",
  "GET /v1/connections/{id}": "getConnection",
  "DELETE /v1/connections/{id}": "deleteConnection",
  "POST /v1/connections/{id}/verify": "verifyConnection",

  "GET /v1/emails": "listEmails",
  "POST /v1/emails": "createEmail",
  "POST /v1/emails/batch": "createEmailBatch",
  "GET /v1/emails/scheduled": "listScheduledEmails",
  "GET /v1/emails/{id}": "getEmail",
  "PATCH /v1/emails/{id}": "updateEmail",
  "GET /v1/emails/{id}/content": "getEmailContent",
  "POST /v1/emails/{id}/cancel": "cancelEmail",
  "POST /v1/emails/raw": "createRawEmail",
  "GET /v1/emails/raw/credentials": "checkRelayCredentials",

  "GET /v1/suppressions": "listSuppressions",
  "POST /v1/suppressions": "createSuppression",
  "DELETE /v1/suppressions/{email}": "deleteSuppression",

  "GET /v1/mail-reports": "listMailReports",
  "GET /v1/mail-reports/{id}/raw": "getMailReportRaw",

  "GET /v1/reports/email": "getEmailReport",
  "GET /v1/reports/support": "getSupportReport",

  "GET /v1/inboxes": "listInboxes",
  "POST /v1/inboxes": "createInbox",
  "GET /v1/inboxes/{id}": "getInbox",
  "PATCH /v1/inboxes/{id}": "updateInbox",
  "DELETE /v1/inboxes/{id}": "deleteInbox",
  "GET /v1/inbound/dropped": "listDroppedMail",
  "GET /v1/inbound/dropped/{id}/raw": "getDroppedMailRaw",

  "GET /v1/customers": "listCustomers",
  "POST /v1/customers": "createCustomer",
  "GET /v1/customers/{id}": "getCustomer",
  "PATCH /v1/customers/{id}": "updateCustomer",
  "DELETE /v1/customers/{id}": "deleteCustomer",

  "GET /v1/contact-groups": "listContactGroups",
  "POST /v1/contact-groups": "createContactGroup",
  "GET /v1/contact-groups/{id}": "getContactGroup",
  "PATCH /v1/contact-groups/{id}": "updateContactGroup",
  "DELETE /v1/contact-groups/{id}": "deleteContactGroup",
  "GET /v1/contact-groups/{id}/members": "listContactGroupMembers",
  "POST /v1/contact-groups/{id}/members": "createContactGroupMembers",
  "DELETE /v1/contact-groups/{id}/members/{customer_id}": "deleteContactGroupMember",

  "GET /v1/campaigns": "listCampaigns",
  "POST /v1/campaigns": "createCampaign",
  "GET /v1/campaigns/unsubscribed": "listUnsubscribedCustomers",
  "GET /v1/campaigns/{id}": "getCampaign",
  "PATCH /v1/campaigns/{id}": "updateCampaign",
  "DELETE /v1/campaigns/{id}": "deleteCampaign",
  "GET /v1/campaigns/{id}/recipients": "listCampaignRecipients",
  "POST /v1/campaigns/{id}/send": "sendCampaign",
  "POST /v1/campaigns/{id}/pause": "pauseCampaign",
  "POST /v1/campaigns/{id}/resume": "resumeCampaign",
  "POST /v1/campaigns/{id}/cancel": "cancelCampaign",
  "POST /v1/campaigns/{id}/test": "sendCampaignTest",

  "GET /v1/automations": "listAutomations",
  "POST /v1/automations": "createAutomation",
  "POST /v1/automations/trigger": "triggerAutomation",
  "GET /v1/automations/{id}": "getAutomation",
  "PATCH /v1/automations/{id}": "updateAutomation",
  "DELETE /v1/automations/{id}": "deleteAutomation",
  "POST /v1/automations/{id}/activate": "activateAutomation",
  "POST /v1/automations/{id}/pause": "pauseAutomation",
  "GET /v1/automations/{id}/enrollments": "listAutomationEnrollments",
  "GET /v1/enrollments/{id}": "getEnrollment",
  "POST /v1/enrollments/{id}/cancel": "cancelEnrollment",

  "GET /v1/tags": "listTags",
  "POST /v1/tags": "createTag",
  "GET /v1/tags/{id}": "getTag",
  "PATCH /v1/tags/{id}": "updateTag",
  "DELETE /v1/tags/{id}": "deleteTag",

  "GET /v1/changelog": "listChangelogEntries",
  "POST /v1/changelog": "createChangelogEntry",
  "GET /v1/changelog/{id}": "getChangelogEntry",
  "PATCH /v1/changelog/{id}": "updateChangelogEntry",
  "DELETE /v1/changelog/{id}": "deleteChangelogEntry",

  "GET /v1/surveys": "listSurveys",
  "POST /v1/surveys": "createSurvey",
  "GET /v1/surveys/{id}": "getSurvey",
  "PATCH /v1/surveys/{id}": "updateSurvey",
  "DELETE /v1/surveys/{id}": "deleteSurvey",
  "GET /v1/surveys/{id}/responses": "listSurveyResponses",

  "GET /v1/tickets": "listTickets",
  "POST /v1/tickets": "createTicket",
  "POST /v1/tickets/compose": "composeTicket",
  "GET /v1/tickets/{id}": "getTicket",
  "PATCH /v1/tickets/{id}": "updateTicket",
  "DELETE /v1/tickets/{id}": "deleteTicket",
  "POST /v1/tickets/{id}/manage": "manageTicket",
  "GET /v1/tickets/{id}/messages": "listTicketMessages",
  "POST /v1/tickets/{id}/messages": "createTicketMessage",
  "GET /v1/tickets/{id}/tags": "listTicketTags",
  "POST /v1/tickets/{id}/tags": "createTicketTag",
  "DELETE /v1/tickets/{id}/tags/{tag_id}": "deleteTicketTag",

  "GET /v1/messages/{id}": "getMessage",
  "PATCH /v1/messages/{id}": "updateMessage",
  "DELETE /v1/messages/{id}": "deleteMessage",
  "POST /v1/messages/{id}/send": "sendMessage",
  "GET /v1/messages/{id}/raw": "getMessageRaw",
  "GET /v1/messages/{id}/attachments": "listMessageAttachments",
  "GET /v1/messages/{id}/attachments/{att_id}/content": "getMessageAttachmentContent",
};
