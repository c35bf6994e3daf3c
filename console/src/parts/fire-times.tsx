// Next fire times in the job's zone and in the viewer's.
import { inZone, local, viewerZone } from "../time.js";

export function FireTimes({ times, zone }: { times: readonly string[]; zone: string }) {
  if (times.length === 0) return <span class="muted">none (not scheduled)</span>;
  return (
    <ol class="fires">
      {times.map((t) => (
        <li key={t}>
          <time dateTime={t}>{inZone(t, zone)}</time>
          {zone !== viewerZone && <span class="muted"> · {local(t)}</span>}
        </li>
      ))}
    </ol>
  );
}
