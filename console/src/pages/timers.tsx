// Pending timers, earliest due first, searched by the server (aggregate id, key, command type, tenant):
// a page of a million never loads more than its own rows.
import { call, query } from "../api.js";
import type { Session } from "../app.js";
import { useLoad } from "../parts/load.js";
import { ErrorNotice, Loading } from "../parts/notice.js";
import { PagedTable, useCursors } from "../parts/paged-table.js";
import { go, href } from "../router.js";
import { local } from "../time.js";
import type { AggregateRef, Timer } from "../types.js";
import { ErrorText } from "./runs.js";

const FILTERS = ["aggregate", "key", "command", "tenant"] as const;

export function aggregateLink(ref: AggregateRef) {
  return (
    <a href={href(["aggregate", ref.context, ref.aggregate, ref.tenantId, ref.id])}>
      {ref.context}.{ref.aggregate} {ref.id}
      <span class="muted"> @{ref.tenantId}</span>
    </a>
  );
}

/** A timer's key, the command it sends and that command's target: three cells of a timers table. */
export function TimerCells({ timer }: { timer: Timer }) {
  return (
    <>
      <td>
        <code>{timer.key}</code>
      </td>
      <td>
        <code>{timer.command}</code>
      </td>
      <td>{aggregateLink(timer.target)}</td>
    </>
  );
}

export function TimersPage({ session, params }: { session: Session; params: URLSearchParams }) {
  const filters = Object.fromEntries(FILTERS.map((f) => [f, params.get(f) ?? undefined])) as Record<(typeof FILTERS)[number], string | undefined>;
  const { cursors, cursor, setCursors } = useCursors();
  const [timers] = useLoad(() => call<{ timers: Timer[]; next?: string }>(`/wow/timers${query({ ...filters, cursor, limit: 50 })}`), JSON.stringify([filters, cursor]));
  const apply = (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    setCursors([]);
    go(["timers"], Object.fromEntries(FILTERS.map((f) => [f, ((form.get(f) as string | null) ?? "").trim() || undefined])));
  };
  return (
    <section>
      <h1>Pending timers</h1>
      <form class="filters" onSubmit={apply} aria-label="Search timers">
        <label>
          Aggregate id <input name="aggregate" defaultValue={filters.aggregate ?? ""} />
        </label>
        <label>
          Key <input name="key" defaultValue={filters.key ?? ""} />
        </label>
        <label>
          Command type <input name="command" defaultValue={filters.command ?? ""} placeholder="context.Command" />
        </label>
        {session.tenant === undefined && (
          <label>
            Tenant <input name="tenant" defaultValue={filters.tenant ?? ""} />
          </label>
        )}
        <button type="submit">Search</button>
      </form>
      {timers.state === "loading" ? (
        <Loading />
      ) : timers.state === "error" ? (
        <ErrorNotice error={timers.error} />
      ) : (
        <PagedTable
          testId="timers-table"
          caption="Pending timers, earliest due first"
          columns={["Due", "Owner", "Key", "Command", "Target", "Attempts", "Last error"]}
          rows={timers.data.timers}
          empty="No pending timer matches."
          pages={{ cursors, next: timers.data.next, onMove: setCursors, label: "Timers" }}
          row={(t) => (
            <tr key={t.id}>
              <td>{local(t.due)}</td>
              <td>{aggregateLink(t.owner)}</td>
              <TimerCells timer={t} />
              <td>{t.attempts}</td>
              <td>{t.lastError ? <ErrorText text={t.lastError} /> : <span class="muted">—</span>}</td>
            </tr>
          )}
        />
      )}
    </section>
  );
}
