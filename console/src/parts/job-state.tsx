// Enabled, or paused with the operator's note, or disabled; a run's outcome and duration.
import type { Job, Run } from "../types.js";
import { duration, local } from "../time.js";

export function JobState({ job }: { job: Job }) {
  if (job.enabled) return <span class="badge ok">Enabled</span>;
  if (job.paused)
    return (
      <span>
        <span class="badge warn">Paused</span> <span data-testid="paused-note">{job.paused.note === "" ? "(no note)" : `“${job.paused.note}”`}</span>
        <span class="muted"> since {local(job.paused.at)}</span>
      </span>
    );
  return <span class="badge">Disabled</span>;
}

export function Outcome({ run }: { run: Run | undefined }) {
  if (run === undefined) return <span class="muted">no run yet</span>;
  const tone = run.outcome === "succeeded" ? "ok" : run.outcome === "skipped" ? "" : "bad";
  return (
    <span>
      <span class={`badge ${tone}`}>{run.outcome}</span> {duration(run.durationMs)}
    </span>
  );
}
