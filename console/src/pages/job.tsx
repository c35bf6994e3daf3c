// One job instance: its rule, next fire times, state, and the operator's actions (trigger now,
// backfill a range, enable, disable with a note, reschedule with a live preview), each confirmed or
// refused in the server's words; its run log below. Another tenant's instance is "not found".
import { useEffect, useState } from "preact/hooks";
import { ApiError, call, query, scheduleCommand } from "../api.js";
import type { Session } from "../app.js";
import { FireTimes } from "../parts/fire-times.js";
import { JobState, Outcome } from "../parts/job-state.js";
import { useLoad } from "../parts/load.js";
import { ErrorNotice, Loading, Notice, type Outcome as ActionOutcome } from "../parts/notice.js";
import { RulePreview, useRuleCheck } from "../parts/rule-editor.js";
import { href } from "../router.js";
import { fromLocalInput, viewerZone } from "../time.js";
import type { Job } from "../types.js";
import { RunLog } from "./runs.js";

export function JobPage({ context, instance, tenant }: { session: Session; context: string; instance: string; tenant: string | undefined }) {
  const [round, setRound] = useState(0);
  const [job, reload] = useLoad(() => call<{ job: Job }>(`/wow/jobs/${encodeURIComponent(instance)}${query({ context, tenant, fires: 5 })}`), JSON.stringify([context, instance, tenant, round]));
  const [outcome, setOutcome] = useState<ActionOutcome>(undefined);
  // After an action: the job and its run log again, a few times, while the host runs what was asked.
  const [polls, setPolls] = useState(0);
  useEffect(() => {
    if (polls === 0) return;
    const timer = setTimeout(() => {
      setRound((r) => r + 1);
      setPolls((p) => p - 1);
    }, 400);
    return () => clearTimeout(timer);
  }, [polls, round]);
  if (job.state === "loading") return <Loading />;
  if (job.state === "error")
    return (
      <section>
        <h1>{job.error.status === 404 ? "Not found" : "Job instance"}</h1>
        <ErrorNotice error={job.error} />
        <p>
          <a href={href(["jobs"])}>Back to the jobs</a>
        </p>
      </section>
    );
  const j = job.data.job;
  const act = async (what: string, verb: string, body: Record<string, unknown> = {}) => {
    setOutcome(undefined);
    try {
      const result = await scheduleCommand(j.context, j.id, verb, j.tenantId, body);
      setOutcome({ kind: "done", text: `${what}: ${result.outcome ?? "done"}${result.commandId ? ` (command ${result.commandId})` : ""}.` });
      reload();
      setPolls(15);
      return true;
    } catch (error) {
      setOutcome({ kind: "failed", error: error instanceof ApiError ? error : new ApiError(0, "Error", String(error)) });
      return false;
    }
  };
  return (
    <section>
      <h1>
        Job {j.id} <span class="muted">in {j.context}, tenant {j.tenantId}</span>
      </h1>
      <dl class="facts">
        <dt>Rule and zone</dt>
        <dd>
          <code data-testid="rule">{j.rule.expression}</code> in {j.rule.zone}
        </dd>
        <dt>In words</dt>
        <dd>{j.ruleWords}</dd>
        <dt>State</dt>
        <dd data-testid="job-state">
          <JobState job={j} />
        </dd>
        <dt>Scope</dt>
        <dd>
          {j.scope}
          {j.partition === undefined ? "" : `, partition ${j.partition}`}
        </dd>
        <dt>Next five fire times ({j.rule.zone} · {viewerZone})</dt>
        <dd data-testid="next-fires">
          <FireTimes times={j.nextFireTimes} zone={j.rule.zone} />
        </dd>
        <dt>Last run</dt>
        <dd>
          <Outcome run={j.lastRun} />
        </dd>
      </dl>
      <Notice outcome={outcome} />
      <h2>Actions</h2>
      <div class="actions">
        <button type="button" onClick={() => void act("Triggered now", "trigger")}>
          Trigger now
        </button>
        {j.enabled ? <DisableForm onDisable={(note) => act("Disabled", "disable", { note })} /> : (
          <button type="button" onClick={() => void act("Enabled", "enable")}>
            Enable
          </button>
        )}
      </div>
      <RescheduleForm job={j} onReschedule={(expression, zone) => act("Rescheduled", "reschedule", { expression, zone })} />
      <BackfillForm onBackfill={(from, to) => act("Backfill asked", "backfill", { from, to })} />
      <h2 id="runs">Run log</h2>
      <RunLog context={j.context} instance={j.id} tenant={j.tenantId} round={round} />
    </section>
  );
}

function DisableForm({ onDisable }: { onDisable: (note: string) => Promise<boolean> }) {
  const [note, setNote] = useState("");
  return (
    <form
      class="inline"
      onSubmit={(e) => {
        e.preventDefault();
        void onDisable(note).then((ok) => ok && setNote(""));
      }}
    >
      <label for="disable-note">Note</label>
      <input id="disable-note" value={note} onInput={(e) => setNote(e.currentTarget.value)} placeholder="why it is paused" />
      <button type="submit">Disable</button>
    </form>
  );
}

function RescheduleForm({ job, onReschedule }: { job: Job; onReschedule: (expression: string, zone: string) => Promise<boolean> }) {
  const [expression, setExpression] = useState(job.rule.expression);
  const [zone, setZone] = useState(job.rule.zone);
  const check = useRuleCheck(expression, zone);
  const [refused, setRefused] = useState(false);
  const submit = (e: Event) => {
    e.preventDefault();
    // Nothing is sent until the host's engine accepted the rule.
    if (check.state !== "ok") {
      setRefused(true);
      document.getElementById("rule-expression")?.focus();
      return;
    }
    setRefused(false);
    void onReschedule(expression, zone);
  };
  return (
    <form class="block" onSubmit={submit} aria-labelledby="reschedule-title">
      <h3 id="reschedule-title">Reschedule</h3>
      <label for="rule-expression">Cron rule (six fields: second minute hour day month weekday)</label>
      <input id="rule-expression" value={expression} onInput={(e) => setExpression(e.currentTarget.value)} aria-describedby="rule-preview" aria-invalid={check.state === "invalid"} spellcheck={false} />
      <label for="rule-zone">Time zone</label>
      <input id="rule-zone" value={zone} onInput={(e) => setZone(e.currentTarget.value)} aria-describedby="rule-preview" spellcheck={false} />
      <RulePreview check={check} expression={expression} id="rule-preview" />
      {refused && <p class="error-text">Fix the rule first: nothing was sent.</p>}
      <button type="submit" aria-disabled={check.state !== "ok"}>
        Reschedule
      </button>
    </form>
  );
}

function BackfillForm({ onBackfill }: { onBackfill: (from: string, to: string) => Promise<boolean> }) {
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const submit = (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    const from = fromLocalInput(String(form.get("from") ?? ""));
    const to = fromLocalInput(String(form.get("to") ?? ""));
    if (from === undefined || to === undefined) return setProblem("Give both ends of the range.");
    setProblem(undefined);
    void onBackfill(from, to);
  };
  return (
    <form class="block" onSubmit={submit} aria-labelledby="backfill-title">
      <h3 id="backfill-title">Backfill a range</h3>
      <p class="muted">Runs every slot the rule has in the range, once each (times in {viewerZone}).</p>
      <label for="backfill-from">From</label>
      <input id="backfill-from" name="from" type="datetime-local" step={1} required />
      <label for="backfill-to">To</label>
      <input id="backfill-to" name="to" type="datetime-local" step={1} required />
      {problem && <p class="error-text">{problem}</p>}
      <button type="submit">Backfill</button>
    </form>
  );
}
