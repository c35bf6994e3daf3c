// Delivery lateness of the last hour, a minute a point (p50 and p95), as an inline SVG: no library,
// nothing fetched. Minutes without deliveries sit at zero.
import type { LatenessMinute } from "../types.js";
import { viewerZone } from "../time.js";

const W = 640;
const H = 200;
const PAD = { left: 56, right: 12, top: 12, bottom: 28 };

export function LatenessChart({ minutes, now }: { minutes: readonly LatenessMinute[]; now: string }) {
  const end = Math.floor(new Date(now).getTime() / 60_000) * 60_000;
  const start = end - 59 * 60_000;
  const byMinute = new Map(minutes.map((m) => [new Date(m.at).getTime(), m]));
  const points = Array.from({ length: 60 }, (_, i) => byMinute.get(start + i * 60_000) ?? { at: new Date(start + i * 60_000).toISOString(), count: 0, p50Ms: 0, p95Ms: 0, maxMs: 0 });
  const top = Math.max(10, ...points.map((p) => p.p95Ms));
  const x = (i: number) => PAD.left + (i / 59) * (W - PAD.left - PAD.right);
  const y = (ms: number) => PAD.top + (1 - ms / top) * (H - PAD.top - PAD.bottom);
  const line = (pick: (p: LatenessMinute) => number) => points.map((p, i) => `${i === 0 ? "M" : "L"}${x(i).toFixed(1)},${y(pick(p)).toFixed(1)}`).join(" ");
  const deliveries = points.reduce((n, p) => n + p.count, 0);
  const label = (at: number) => new Intl.DateTimeFormat("en-GB", { timeZone: viewerZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(new Date(at));
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby="lateness-title" data-testid="lateness-chart">
        <title id="lateness-title">{`Delivery lateness per minute over the last hour: ${deliveries} deliveries, highest p95 ${Math.max(...points.map((p) => p.p95Ms))} ms`}</title>
        <rect x={PAD.left} y={PAD.top} width={W - PAD.left - PAD.right} height={H - PAD.top - PAD.bottom} class="chart-area" />
        {[0, 0.5, 1].map((f) => (
          <g key={f}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(top * f)} y2={y(top * f)} class="chart-grid" />
            <text x={PAD.left - 6} y={y(top * f) + 4} text-anchor="end" class="chart-label">{`${Math.round(top * f)} ms`}</text>
          </g>
        ))}
        {[0, 30, 59].map((i) => (
          <text key={i} x={x(i)} y={H - 8} text-anchor="middle" class="chart-label">
            {label(start + i * 60_000)}
          </text>
        ))}
        <path d={line((p) => p.p95Ms)} class="chart-p95" data-points={points.length} />
        <path d={line((p) => p.p50Ms)} class="chart-p50" />
      </svg>
      <figcaption>
        <span class="key key-p95" aria-hidden="true" /> p95 <span class="key key-p50" aria-hidden="true" /> p50 · times in {viewerZone} · {deliveries} deliveries
      </figcaption>
    </figure>
  );
}
