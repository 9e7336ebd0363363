/** Queue names as declared in wrangler.toml (a test compares them). */
export const QUEUE = {
  requestLogs: "request-logs",
  emailSend: "email-send",
  webhookDispatch: "webhook-dispatch",
  deadLetters: "dead-letters",
} as const;
