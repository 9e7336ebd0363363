import type { toRequestLog } from "../../features/request-logs/request-logs.dto";
import { Empty, FilterSelect, PageHeader, Pager, Time } from "../../ui/components";
import { BackLink, Fact, FilterForm, HttpStatus, KeyPrefix, milliseconds } from "./log-components";

export type RequestLog = ReturnType<typeof toRequestLog>;

export interface RequestLogFilters {
  status?: number | undefined;
  path?: string | undefined;
  key_id?: string | undefined;
  limit: number;
  offset: number;
}

const LIST = "/dashboard/request-logs";

export function RequestLogsPage(props: {
  logs: RequestLog[];
  total: number;
  filters: RequestLogFilters;
  keys: Array<{ value: string; label: string }>;
}) {
  const { filters } = props;
  const active = Boolean(filters.status || filters.path || filters.key_id);
  return (
    <>
      <PageHeader title="Request logs" />
      <p class="muted">
        Every API request made with this workspace's keys, newest first. A request shows up here within a few
        seconds.
      </p>
      <FilterForm action={LIST} active={active}>
        <label>
          Status
          <input type="number" name="status" min={100} max={599} value={filters.status} placeholder="404" />
        </label>
        <label>
          Path
          <input type="search" name="path" maxlength={200} value={filters.path} placeholder="/v1/tickets" />
        </label>
        <FilterSelect label="Key" name="key_id" value={filters.key_id} options={props.keys} />
      </FilterForm>
      <section class="panel">
        {props.logs.length === 0 ? (
          <Empty text={active ? "No request matches these filters." : "No API requests yet."} />
        ) : (
          <RequestLogTable logs={props.logs} />
        )}
      </section>
      <Pager
        path={LIST}
        query={{
          status: filters.status,
          path: filters.path,
          key_id: filters.key_id,
          limit: filters.limit === 50 ? undefined : filters.limit,
        }}
        limit={filters.limit}
        offset={filters.offset}
        total={props.total}
      />
    </>
  );
}

function RequestLogTable(props: { logs: RequestLog[] }) {
  return (
    <table class="logs">
      <thead>
        <tr>
          <th>Time</th>
          <th>Request</th>
          <th>Status</th>
          <th class="num">Duration</th>
          <th>Key</th>
          <th>Request id</th>
        </tr>
      </thead>
      <tbody>
        {props.logs.map((log) => (
          <tr>
            <td class="nowrap">
              <Time at={log.created_at} />
            </td>
            <td class="path">
              <code>
                {log.method} {log.path}
              </code>
            </td>
            <td>
              <HttpStatus code={log.status} />
            </td>
            <td class="num nowrap">{milliseconds(log.duration_ms)}</td>
            <td>
              <KeyPrefix prefix={log.key_prefix} />
            </td>
            <td>
              <a href={`${LIST}/${encodeURIComponent(log.id)}`}>
                <code>{log.id}</code>
              </a>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function RequestLogPage(props: { log: RequestLog }) {
  const { log } = props;
  return (
    <>
      <BackLink href={LIST} text="All request logs" />
      <PageHeader title="Request log" />
      <section class="panel">
        <h2 class="request-line">
          <code>
            {log.method} {log.path}
          </code>{" "}
          <HttpStatus code={log.status} />
        </h2>
        <dl class="facts">
          <Fact term="Request id">
            <code>{log.id}</code>
          </Fact>
          <Fact term="Time">
            <Time at={log.created_at} />
          </Fact>
          <Fact term="Method">{log.method}</Fact>
          <Fact term="Path">
            <code>{log.path}</code>
          </Fact>
          <Fact term="Status">{log.status}</Fact>
          <Fact term="Duration">{milliseconds(log.duration_ms)}</Fact>
          <Fact term="Error code" empty={log.error_code === null}>
            <code>{log.error_code}</code>
          </Fact>
          <Fact term="Key" empty={log.key_id === null}>
            <KeyPrefix prefix={log.key_prefix} /> <code class="muted">{log.key_id}</code> ·{" "}
            <a href={`${LIST}?key_id=${encodeURIComponent(log.key_id ?? "")}`}>requests with this key</a>
          </Fact>
          <Fact term="IP address" empty={log.ip === null}>
            {log.ip}
          </Fact>
          <Fact term="User agent" empty={log.user_agent === null}>
            <code>{log.user_agent}</code>
          </Fact>
        </dl>
        <p class="muted">
          Only these facts are recorded: never a request's headers or bodies, so no token or personal data is
          kept.
        </p>
      </section>
    </>
  );
}
