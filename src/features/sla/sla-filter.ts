/** The ticket list's SLA filters as the query string gives them, for `TicketFilter`. */
export const slaFilterOf = (query: {
  sla_breached?: "true" | "false" | undefined;
  sla_due_before?: string | undefined;
}) => ({
  slaBreached: query.sla_breached === undefined ? undefined : query.sla_breached === "true",
  slaDueBefore: query.sla_due_before ? Date.parse(query.sla_due_before) : undefined,
});
