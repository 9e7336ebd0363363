import type { AccountRow } from "../../features/accounts/accounts.repo";
import { EMAIL_RETENTION_MAX_DAYS, emailRetentionDays } from "../../lib/email-retention";
import { CsrfField } from "../../ui/components";

/** Workspace settings, for admins and owners on the Overview. */
export function SettingsForm(props: { account: AccountRow; csrfToken: string }) {
  const { account } = props;
  const maxDays = EMAIL_RETENTION_MAX_DAYS[account.plan];
  return (
    <section class="panel">
      <h2>Workspace settings</h2>
      <form method="post" action="/dashboard/settings" class="stack">
        <CsrfField token={props.csrfToken} />
        <label>
          Workspace name
          <input name="name" value={account.name} required maxlength={100} />
        </label>
        <label>
          Ticket prefix
          <input name="ticket_prefix" value={account.ticketPrefix} required maxlength={10} />
        </label>
        <label>
          Request log retention
          <input name="request_log_retention" value={account.requestLogRetention} required maxlength={10} />
        </label>
        <label>
          Email retention (days, at most {maxDays} on the {account.plan} plan)
          <input
            type="number"
            name="email_retention_days"
            value={emailRetentionDays(account.plan, account.emailRetentionDays)}
            required
            min={1}
            max={maxDays}
            step={1}
          />
        </label>
        <label class="check">
          <input type="checkbox" name="default_track_opens" checked={account.defaultTrackOpens} />
          Track opens by default
        </label>
        <label class="check">
          <input type="checkbox" name="default_track_clicks" checked={account.defaultTrackClicks} />
          Track clicks by default
        </label>
        <div>
          <button type="submit">Save</button>
        </div>
      </form>
    </section>
  );
}
