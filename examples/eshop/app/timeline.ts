// Prints what the journal records, as it happens: one line per event, time since the tour began.
import type { EventMessage, WowHost } from "wowc/runtime";

const SHOWN_SYSTEM_EVENTS = new Set(["wow.ScheduleSet", "wow.ScheduleCancelled", "wow.schedule.Enabled", "wow.schedule.Ticked"]);

export class Timeline {
  private position = 0;
  private readonly began = Date.now();

  constructor(private readonly host: WowHost) {}

  /** A line of the tour's own. */
  say(text: string): void {
    console.log(`${this.stamp()}  ▶ ${text}`);
  }

  /** Prints the events committed since the last call. */
  async flush(): Promise<EventMessage[]> {
    const events = await this.host.store.events.read(this.position, 1000);
    for (const event of events) {
      this.position = event.position ?? this.position;
      if (event.type.startsWith("wow.") && !SHOWN_SYSTEM_EVENTS.has(event.type)) continue;
      console.log(`${this.stamp()}    ${describe(event)}`);
    }
    return events;
  }

  private stamp(): string {
    return `+${((Date.now() - this.began) / 1000).toFixed(2).padStart(5)}s`;
  }
}

function describe(e: EventMessage): string {
  const who = `${e.aggregate.aggregate}/${e.aggregate.id}`.padEnd(28);
  const body = e.body as Record<string, unknown>;
  switch (e.type) {
    case "wow.ScheduleSet": {
      const b = body as { key: string; command: { type: string }; due: number };
      return `${who} schedules ${b.command.type.split(".").pop()} under '${b.key}' for ${new Date(b.due).toISOString().replace("T", " ").slice(0, 23)}`;
    }
    case "wow.ScheduleCancelled":
      return `${who} cancels its schedule '${String(body.key)}'`;
    case "wow.schedule.Enabled":
      return `${who} job enabled: ${JSON.stringify(body.rule)}`;
    case "wow.schedule.Ticked":
      return `${who} job tick: slot ${String(body.slot)}, skipped ${String(body.skipped)}`;
    default:
      return `${who} ${e.type.split(".").pop()} ${JSON.stringify(e.body)}`;
  }
}
