// The first page: counts, the last hour's delivery lateness, and the hosts.
import { call } from "../api.js";
import type { Session } from "../app.js";
import { useLoad } from "../parts/load.js";
import { ErrorNotice, Loading } from "../parts/notice.js";
import { LatenessChart } from "../parts/lateness-chart.js";
import { href } from "../router.js";
import { local } from "../time.js";
import type { LatenessMinute, Overview } from "../types.js";

export function OverviewPage({ session }: { session: Session }) {
  const [overview] = useLoad(() => call<Overview>("/wow/overview"), "overview");
  const operator = session.tenant === undefined;
  const [lateness] = useLoad(() => (operator ? call<{ minutes: LatenessMinute[] }>("/wow/metrics/lateness?minutes=60") : Promise.resolve(undefined)), `lateness-${operator}`);
  if (overview.state === "loading") return <Loading />;
  if (overview.state === "error") return <ErrorNotice error={overview.error} />;
  const o = overview.data;
  const cards: [string, number | undefined, string][] = [
    ["Jobs enabled", o.jobs.enabled, href(["jobs"], { state: "enabled" })],
    ["Jobs paused", o.jobs.paused, href(["jobs"], { state: "paused" })],
    ["Timers due in the next hour", o.timers.dueWithinHour, href(["timers"])],
    ["Parked timers", o.timers.parked, href(["parked"])],
    ["Parked events", o.events.parked, href(["parked"])],
    ["Runs failed in the last 24 h", o.runs?.failedLast24h, href(["jobs"])],
  ];
  return (
    <section>
      <h1>Overview{o.tenant === undefined ? "" : ` of tenant ${o.tenant}`}</h1>
      <p class="muted">As of {local(o.now)}</p>
      <ul class="cards">
        {cards.map(([label, value, link]) => (
          <li key={label} class="card">
            <a href={link}>
              <span class="card-value" data-testid={`count-${label}`}>
                {value === undefined ? "—" : value}
              </span>
              <span class="card-label">{label}</span>
            </a>
          </li>
        ))}
      </ul>
      <h2>Delivery lateness, last hour</h2>
      {!operator ? (
        <p class="muted">Lateness covers every tenant: it needs an operator's credential.</p>
      ) : !o.metrics ? (
        <p class="muted">Metrics are off on this host (wow.metrics.enabled is false).</p>
      ) : lateness.state === "ok" && lateness.data ? (
        <LatenessChart minutes={lateness.data.minutes} now={o.now} />
      ) : lateness.state === "error" ? (
        <ErrorNotice error={lateness.error} />
      ) : (
        <Loading />
      )}
      <h2>Hosts</h2>
      <table>
        <caption class="visually-hidden">Hosts of the cluster</caption>
        <thead>
          <tr>
            <th scope="col">Host</th>
            <th scope="col">Store</th>
            <th scope="col">Journal partitions</th>
            <th scope="col">Partitions it owns</th>
          </tr>
        </thead>
        <tbody>
          {o.hosts.map((h) => (
            <tr key={h.id}>
              <td data-testid="host-id">{h.id}</td>
              <td>{h.store}</td>
              <td>{h.partitions}</td>
              <td>{h.owned.length === h.partitions ? "all" : h.owned.join(", ") || "none"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
