import type { toSmtpLog } from "../../features/smtp-logs/smtp-logs.dto";
import { SMTP_OUTCOMES } from "../../features/smtp-logs/smtp-logs.schemas";
import { Badge, Empty, FilterSelect, formatBytes, PageHeader, Pager, Time } from "../../ui/components";
import { BackLink, Fact, FilterForm, KeyPrefix } from "./log-components";

export type SmtpLog = ReturnType<typeof toSmtpLog>;

export interface SmtpLogFilters {
  outcome?: SmtpLog["outcome"] | undefined;
  limit: number;
  offset: number;
}

const LIST = "/dashboard/smtp-logs";

const OUTCOME_TONES = {
  accepted: "good",
  deferred: "warn",
  rejected: "bad",
  auth_failed: "bad",
  closed: "neutral",
} as const;

function Outcome(props: { outcome: SmtpLog["outcome"] }) {
  return <Badge text={props.outcome.replace("_", " ")} tone={OUTCOME_TONES[props.outcome]} />;
}

export function SmtpLogsPage(props: { logs: SmtpLog[]; total: number; filters: SmtpLogFilters }) {
  const { filters } = props;
  return (
    <>
      <PageHeader title="SMTP logs" />
      <p class="muted">
        What the SMTP relay saw for this workspace, newest first: every message, every failed sign-in with one
        of its keys, and every session that ended without a message.
      </p>
      <FilterForm action={LIST} active={Boolean(filters.outcome)}>
        <FilterSelect
          label="Outcome"
          name="outcome"
          value={filters.outcome}
          options={SMTP_OUTCOMES.map((o) => ({ value: o, label: o.replace("_", " ") }))}
        />
      </FilterForm>
      <section class="panel">
        {props.logs.length === 0 ? (
          <Empty
            text={filters.outcome ? "No SMTP log has this outcome." : "The SMTP relay has seen nothing yet."}
          />
        ) : (
          <SmtpLogTable logs={props.logs} />
        )}
      </section>
      <Pager
        path={LIST}
        query={{ outcome: filters.outcome, limit: filters.limit === 50 ? undefined : filters.limit }}
        limit={filters.limit}
        offset={filters.offset}
        total={props.total}
      />
    </>
  );
}

function SmtpLogTable(props: { logs: SmtpLog[] }) {
  return (
    <table class="logs">
      <thead>
        <tr>
          <th>Time</th>
          <th>Outcome</th>
          <th>From</th>
          <th class="num">Recipients</th>
          <th class="num">Size</th>
          <th>Client IP</th>
          <th>Reply</th>
        </tr>
      </thead>
      <tbody>
        {props.logs.map((log) => (
          <tr>
            <td class="nowrap">
              <a href={`${LIST}/${encodeURIComponent(log.id)}`}>
                <Time at={log.created_at} />
              </a>
            </td>
            <td>
              <Outcome outcome={log.outcome} />
            </td>
            <td class="address">{log.mail_from ?? <span class="muted">none</span>}</td>
            <td class="num">{log.rcpt_to.length}</td>
            <td class="num nowrap">{formatBytes(log.size)}</td>
            <td>
              <code>{log.client_ip}</code>
            </td>
            <td class="reply">
              <code>{log.reply}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function SmtpLogPage(props: { log: SmtpLog }) {
  const { log } = props;
  return (
    <>
      <BackLink href={LIST} text="All SMTP logs" />
      <PageHeader title="SMTP log" />
      <section class="panel">
        <h2>
          <Outcome outcome={log.outcome} /> <code>{log.reply}</code>
        </h2>
        <dl class="facts">
          <Fact term="Id">
            <code>{log.id}</code>
          </Fact>
          <Fact term="Time">
            <Time at={log.created_at} />
          </Fact>
          <Fact term="Session">
            <code>{log.session_id}</code>
          </Fact>
          <Fact term="Reply code">{log.reply_code}</Fact>
          <Fact term="Client IP">
            <code>{log.client_ip}</code>
          </Fact>
          <Fact term="TLS" empty={log.tls === null}>
            {log.tls}
          </Fact>
          <Fact term="Sign-in">{log.auth}</Fact>
          <Fact term="Key" empty={log.key_id === null}>
            <KeyPrefix prefix={log.key_prefix} /> <code class="muted">{log.key_id}</code>
          </Fact>
          <Fact term="From" empty={log.mail_from === null}>
            {log.mail_from}
          </Fact>
          <Fact term={`Recipients (${log.rcpt_to.length})`} empty={log.rcpt_to.length === 0}>
            <ul class="plain">
              {log.rcpt_to.map((to) => (
                <li>{to}</li>
              ))}
            </ul>
          </Fact>
          <Fact term="Size" empty={log.size === null}>
            {formatBytes(log.size)} ({log.size} bytes)
          </Fact>
          <Fact term="Email" empty={log.email_id === null}>
            <code>{log.email_id}</code>
          </Fact>
        </dl>
      </section>
    </>
  );
}
