// An aggregate's stream, newest first: its events, with wow.ScheduleSet and wow.ScheduleCancelled
// read as the schedules they set and cancel, and the timers it owns now.
import { useState } from "preact/hooks";
import { call, query } from "../api.js";
import { useLoad } from "../parts/load.js";
import { ErrorNotice, Loading } from "../parts/notice.js";
import { Pager } from "../parts/pager.js";
import { go } from "../router.js";
import { local } from "../time.js";
import type { AggregateRef, Timer } from "../types.js";
import { aggregateLink } from "./timers.js";

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
  const [cursors, setCursors] = useState<readonly string[]>([]);
  const cursor = cursors[cursors.length - 1];
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
      <table data-testid="aggregate-timers">
        <caption class="visually-hidden">Timers this aggregate owns</caption>
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col">Command</th>
            <th scope="col">Target</th>
            <th scope="col">Due</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {s.timers.length === 0 && (
            <tr>
              <td colSpan={5} class="muted">
                None.
              </td>
            </tr>
          )}
          {s.timers.map((t) => (
            <tr key={t.id}>
              <td>
                <code>{t.key}</code>
              </td>
              <td>
                <code>{t.command}</code>
              </td>
              <td>{aggregateLink(t.target)}</td>
              <td>{local(t.due)}</td>
              <td>{t.status}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Events, newest first</h2>
      <table data-testid="aggregate-events">
        <caption class="visually-hidden">The aggregate's events</caption>
        <thead>
          <tr>
            <th scope="col">Version</th>
            <th scope="col">Type</th>
            <th scope="col">At</th>
            <th scope="col">What</th>
          </tr>
        </thead>
        <tbody>
          {s.events.map((e) => (
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
          ))}
        </tbody>
      </table>
      <Pager cursors={cursors} next={s.next} onMove={setCursors} label="Events" />
    </>
  );
}
