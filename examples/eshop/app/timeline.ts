// Prints what the journal records, as it happens: one line per event, time since the tour began.
import type { EventMessage } from "wowc/runtime";

/** Where the timeline reads the journal: a host's event store, or a store of its own. */
interface Journal {
  read(after: number, limit: number): Promise<EventMessage[]>;
}

const SHOWN_SYSTEM_EVENTS = new Set(["wow.ScheduleSet", "wow.ScheduleCancelled", "wow.schedule.Enabled", "wow.schedule.Ticked"]);

export class Timeline {
  private position = 0;
  private readonly began = Date.now();

  /** `who`: which host did what an event records, when known (the cluster tour). */
  constructor(private readonly journal: Journal, private readonly who: (event: EventMessage) => Promise<string | undefined> = async () => undefined) {}

  /** A line of the tour's own. */
  say(text: string): void {
    console.log(`${this.stamp()}  ▶ ${text}`);
  }

  /** Prints the journal until `check` holds; fails naming `what` after `timeoutMs`. */
  async until(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      await this.flush();
      if (Date.now() > deadline) throw new Error(`the tour waited ${timeoutMs} ms for: ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    await this.flush();
  }

  /** Prints the events committed since the last call. */
  async flush(): Promise<EventMessage[]> {
    const events = await this.journal.read(this.position, 1000);
    for (const event of events) {
      this.position = event.position ?? this.position;
      if (event.type.startsWith("wow.") && !SHOWN_SYSTEM_EVENTS.has(event.type)) continue;
      const who = await this.who(event);
      console.log(`${this.stamp()}    ${who === undefined ? "" : `[${who}] `}${describe(event)}`);
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
