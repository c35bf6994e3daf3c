// Every job instance a page at a time: the server filters and sorts (10,000 instances stay fast).
import { call, query } from "../api.js";
import type { Session } from "../app.js";
import { FireTimes } from "../parts/fire-times.js";
import { JobState, Outcome } from "../parts/job-state.js";
import { useLoad } from "../parts/load.js";
import { ErrorNotice, Loading } from "../parts/notice.js";
import { PagedTable, useCursors } from "../parts/paged-table.js";
import { go, href } from "../router.js";
import type { Job } from "../types.js";

const PAGE = 50;
const FILTERS = ["q", "context", "job", "tenant", "state", "sort", "order"] as const;

export function JobsPage({ session, params }: { session: Session; params: URLSearchParams }) {
  const filters = Object.fromEntries(FILTERS.map((f) => [f, params.get(f) ?? undefined])) as Record<(typeof FILTERS)[number], string | undefined>;
  const { cursors, cursor, setCursors } = useCursors();
  const key = JSON.stringify([filters, cursor]);
  const [jobs] = useLoad(() => call<{ jobs: Job[]; next?: string }>(`/wow/jobs${query({ ...filters, cursor, limit: PAGE, fires: 5 })}`), key);
  const apply = (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    setCursors([]);
    go(["jobs"], Object.fromEntries(FILTERS.map((f) => [f, (form.get(f) as string | null) ?? undefined])));
  };
  return (
    <section>
      <h1>Jobs</h1>
      <form class="filters" onSubmit={apply} aria-label="Filter and sort jobs">
        <label>
          Search <input name="q" type="search" defaultValue={filters.q ?? ""} />
        </label>
        <label>
          Context <input name="context" defaultValue={filters.context ?? ""} />
        </label>
        <label>
          Job <input name="job" defaultValue={filters.job ?? ""} />
        </label>
        {session.tenant === undefined && (
          <label>
            Tenant <input name="tenant" defaultValue={filters.tenant ?? ""} />
          </label>
        )}
        <label>
          State
          <select name="state" defaultValue={filters.state ?? ""}>
            <option value="">any</option>
            <option value="enabled">enabled</option>
            <option value="paused">paused</option>
            <option value="disabled">disabled</option>
          </select>
        </label>
        <label>
          Sort by
          <select name="sort" defaultValue={filters.sort ?? "context"}>
            <option value="context">context</option>
            <option value="job">job</option>
            <option value="tenant">tenant</option>
          </select>
        </label>
        <label>
          Order
          <select name="order" defaultValue={filters.order ?? "asc"}>
            <option value="asc">ascending</option>
            <option value="desc">descending</option>
          </select>
        </label>
        <button type="submit">Apply</button>
      </form>
      {jobs.state === "loading" ? (
        <Loading />
      ) : jobs.state === "error" ? (
        <ErrorNotice error={jobs.error} />
      ) : (
        <PagedTable
          testId="jobs-table"
          caption="Job instances"
          columns={["Context", "Job", "Tenant", "Partition", "Rule and zone", "In words", "Next five fire times (job's zone · yours)", "State", "Last run"]}
          rows={jobs.data.jobs}
          empty="No job instance matches."
          pages={{ cursors, next: jobs.data.next, onMove: setCursors, label: "Jobs" }}
          row={(j) => (
            <tr key={`${j.context}/${j.id}/${j.tenantId}`}>
              <td>{j.context}</td>
              <td>
                <a href={href(["jobs", j.context, j.id], { tenant: j.tenantId })}>{j.id}</a>
              </td>
              <td>{j.tenantId}</td>
              <td>{j.partition ?? "—"}</td>
              <td>
                <code>{j.rule.expression}</code> <span class="muted">{j.rule.zone}</span>
              </td>
              <td>{j.ruleWords}</td>
              <td>
                <FireTimes times={j.nextFireTimes} zone={j.rule.zone} />
              </td>
              <td>
                <JobState job={j} />
              </td>
              <td>
                <Outcome run={j.lastRun} />
              </td>
            </tr>
          )}
        />
      )}
    </section>
  );
}
