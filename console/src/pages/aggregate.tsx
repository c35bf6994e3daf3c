// An aggregate's stream, newest first: its events, with wow.ScheduleSet and wow.ScheduleCancelled
// read as the schedules they set and cancel, and the timers it owns now.
import { call, query } from "../api.js";
import { useLoad } from "../parts/load.js";
import { ErrorNotice, Loading } from "../parts/notice.js";
import { PagedTable, useCursors } from "../parts/paged-table.js";
import { go } from "../router.js";
import { local } from "../time.js";
import type { AggregateRef, Timer } from "../types.js";
import { TimerCells } from "./timers.js";

interface StreamEvent {
  readonly position?: number;
  readonly version: number;
  readonly sequence: number;
  readonly type: string;
  readonly createdAt: string;
  readonly body?: unknown;
  readonly schedule?: { readonly set?: string; readonly cancelled?: string; readonly command?: string; readonly due?: string; readonly rule?: { kind: string; expression?: string; after?: number; at?: string }; readonly target?: AggregateRef };
}

interface Stream {
  readonly aggregate: AggregateRef;
  readonly version: number;
  readonly deleted: boolean;
  readonly events: readonly StreamEvent[];
  readonly next?: string;
  readonly timers: readonly Timer[];
}

const FIELDS = [
  ["context", "Context"],
  ["aggregate", "Aggregate type"],
  ["tenant", "Tenant"],
  ["id", "Aggregate id"],
] as const;

function ruleText(rule: NonNullable<NonNullable<StreamEvent["schedule"]>["rule"]>): string {
  if (rule.kind === "cron") return `cron ${rule.expression ?? ""}`;
  if (rule.kind === "after") return `after ${rule.after ?? 0} ms`;
  return rule.at ? `at ${local(rule.at)}` : rule.kind;
}

export function AggregatePage({ path }: { path: readonly string[] }) {
  const named = path.length === 4;
  const open = (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    go(["aggregate", ...FIELDS.map(([f]) => String(form.get(f) ?? "").trim())]);
  };
  return (
    <section>
      <h1>Aggregate {named ? `${path[0]}.${path[1]} ${path[3]}` : ""}</h1>
      <form class="filters" onSubmit={open} aria-label="Open an aggregate">
        {FIELDS.map(([f, label], i) => (
          <label key={f}>
            {label} <input name={f} required defaultValue={path[i] ?? (f === "tenant" ? "(0)" : "")} />
          </label>
        ))}
        <button type="submit">Open</button>
      </form>
      {named && <StreamView path={path} />}
    </section>
  );
}

function StreamView({ path }: { path: readonly string[] }) {
  const { cursors, cursor, setCursors } = useCursors();
  const [stream] = useLoad(() => call<Stream>(`/wow/aggregates/${path.map(encodeURIComponent).join("/")}${query({ cursor, limit: 50 })}`), JSON.stringify([path, cursor]));
  if (stream.state === "loading") return <Loading />;
  if (stream.state === "error") return <ErrorNotice error={stream.error} />;
  const s = stream.data;
  return (
    <>
      <p>
        Version {s.version}
        {s.deleted ? " (deleted)" : ""}
      </p>
      <h2>Pending timers</h2>
      <PagedTable
        testId="aggregate-timers"
        caption="Timers this aggregate owns"
        columns={["Key", "Command", "Target", "Due", "Status"]}
        rows={s.timers}
        empty="None."
        row={(t) => (
          <tr key={t.id}>
            <TimerCells timer={t} />
            <td>{local(t.due)}</td>
            <td>{t.status}</td>
          </tr>
        )}
      />
      <h2>Events, newest first</h2>
      <PagedTable
        testId="aggregate-events"
        caption="The aggregate's events"
        columns={["Version", "Type", "At", "What"]}
        rows={s.events}
        pages={{ cursors, next: s.next, onMove: setCursors, label: "Events" }}
        row={(e) => (
          <tr key={`${e.version}.${e.sequence}`}>
            <td>
              {e.version}.{e.sequence}
            </td>
            <td>
              <code>{e.type}</code>
            </td>
            <td>{local(e.createdAt)}</td>
            <td>
              {e.schedule?.set !== undefined ? (
                <span class="schedule">
                  <span class="badge">schedule set</span> <code>{e.schedule.set}</code>: <code>{e.schedule.command}</code> {e.schedule.rule ? ruleText(e.schedule.rule) : ""}
                  {e.schedule.due ? `, first due ${local(e.schedule.due)}` : ""}
                </span>
              ) : e.schedule?.cancelled !== undefined ? (
                <span class="schedule">
                  <span class="badge">schedule cancelled</span> <code>{e.schedule.cancelled}</code>
                </span>
              ) : (
                <code class="body">{JSON.stringify(e.body)}</code>
              )}
            </td>
          </tr>
        )}
      />
    </>
  );
}
