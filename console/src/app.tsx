// The console's frame: sign-in until a credential is known, then the navigation and the page the URL
// names. A tenant's credential sees its tenant only: the server scopes every call, the frame says so.
import { useEffect, useState } from "preact/hooks";
import { call, credential, forgetCredential, whenUnauthorized } from "./api.js";
import { href, useRoute } from "./router.js";
import type { SessionInfo } from "./types.js";
import { SignIn } from "./pages/sign-in.js";
import { OverviewPage } from "./pages/overview.js";
import { JobsPage } from "./pages/jobs.js";
import { JobPage } from "./pages/job.js";
import { RunsPage } from "./pages/runs.js";
import { TimersPage } from "./pages/timers.js";
import { ParkedPage } from "./pages/parked.js";
import { AggregatePage } from "./pages/aggregate.js";

/** Who is signed in: an operator of every tenant, or one tenant's credential. */
export interface Session {
  readonly tenant?: string;
}

const PAGES = [
  ["overview", "Overview"],
  ["jobs", "Jobs"],
  ["timers", "Timers"],
  ["parked", "Parked"],
  ["aggregate", "Aggregate"],
] as const;

export function App() {
  const [session, setSession] = useState<Session | undefined>(undefined);
  const [checking, setChecking] = useState(credential() !== null);
  const route = useRoute();
  useEffect(() => {
    whenUnauthorized(() => {
      forgetCredential();
      setSession(undefined);
    });
    if (credential() === null) return;
    call<SessionInfo>("/wow/session").then(
      (o) => setSession(o.tenant === undefined ? {} : { tenant: o.tenant }),
      () => forgetCredential(),
    ).finally(() => setChecking(false));
  }, []);
  useEffect(() => {
    const page = PAGES.find(([p]) => p === (route.path[0] ?? "overview"));
    document.title = `${page?.[1] ?? "wow"} · wow console`;
  }, [route]);
  if (checking) return <p role="status">Checking the credential…</p>;
  if (session === undefined) return <SignIn onSignedIn={setSession} />;
  const page = route.path[0] ?? "overview";
  const signOut = () => {
    forgetCredential();
    setSession(undefined);
    location.hash = "";
  };
  return (
    <>
      <a class="skip" href="#main" onClick={(e) => (e.preventDefault(), document.getElementById("main")?.focus())}>
        Skip to the page
      </a>
      <header class="top">
        <span class="brand">wow console</span>
        <nav aria-label="Pages">
          <ul>
            {PAGES.map(([p, label]) => (
              <li key={p}>
                <a href={href([p])} aria-current={page === p || (p === "jobs" && page === "runs") ? "page" : undefined}>
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <span class="who" data-testid="who">
          {session.tenant === undefined ? "Operator (every tenant)" : `Tenant ${session.tenant}`}
        </span>
        <button type="button" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        <Page page={page} session={session} path={route.path} params={route.params} />
      </main>
    </>
  );
}

function Page({ page, session, path, params }: { page: string; session: Session; path: readonly string[]; params: URLSearchParams }) {
  switch (page) {
    case "overview":
      return <OverviewPage session={session} />;
    case "jobs":
      return path.length >= 3 ? <JobPage session={session} context={path[1]!} instance={path[2]!} tenant={params.get("tenant") ?? undefined} /> : <JobsPage session={session} params={params} />;
    case "runs":
      return <RunsPage context={path[1] ?? ""} instance={path[2] ?? ""} tenant={params.get("tenant") ?? undefined} />;
    case "timers":
      return <TimersPage session={session} params={params} />;
    case "parked":
      return <ParkedPage session={session} />;
    case "aggregate":
      return <AggregatePage path={path.slice(1)} />;
    default:
      return (
        <section>
          <h1>Not found</h1>
          <p>There is no page {JSON.stringify(page)}.</p>
        </section>
      );
  }
}
