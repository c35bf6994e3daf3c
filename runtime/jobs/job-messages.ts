// The built-in aggregate `<context>.schedule`: its system commands (routed by ref) and events.
import type { Misfire } from "../model/schedule-rule.js";

export const SCHEDULE_AGGREGATE = "schedule";
/** The key of the instance's own cron timer. */
export const TICK_KEY = "tick";

export const JobCommands = {
  Enable: "wow.schedule.Enable",
  Reschedule: "wow.schedule.Reschedule",
  Disable: "wow.schedule.Disable",
  Trigger: "wow.schedule.Trigger",
  /** Runs each slot of the rule in a past range, in order. */
  Backfill: "wow.schedule.Backfill",
  /** What the instance's cron timer delivers each due slot. */
  Tick: "wow.schedule.Tick",
} as const;

export const JobEvents = {
  Enabled: "wow.schedule.Enabled",
  Rescheduled: "wow.schedule.Rescheduled",
  Disabled: "wow.schedule.Disabled",
  Ticked: "wow.schedule.Ticked",
} as const;

/** The HTTP verbs `wow.schedule.<verb>` and their commands. */
export const JOB_VERBS: Readonly<Record<string, string>> = {
  enable: JobCommands.Enable,
  reschedule: JobCommands.Reschedule,
  disable: JobCommands.Disable,
  trigger: JobCommands.Trigger,
  backfill: JobCommands.Backfill,
};

/** Slots one backfill may run at most: a longer range is split into several. */
export const MAX_BACKFILL_SLOTS = 1_000;
/** The longest note a disable keeps. */
export const MAX_NOTE_LENGTH = 500;

export interface JobRule {
  readonly expression: string;
  readonly zone: string;
  readonly misfire: Misfire;
}

/** Enable/Reschedule bodies: an own rule (all fields optional on Enable: the host's rule applies). */
export interface RuleBody {
  readonly expression?: string;
  readonly zone?: string;
  readonly misfire?: Misfire;
}

export interface EnableBody extends RuleBody {
  /** Sent by the host at start: an instance an operator disabled stays disabled. */
  readonly host?: boolean;
}

export interface EnabledBody {
  readonly job: string;
  readonly rule: JobRule;
  /** The rule is the instance's own (a tenant's), not the host's. */
  readonly own: boolean;
  readonly partition?: number;
}

export interface DisableBody {
  /** Sent by the host at start (config `enabled: false`), not by an operator. */
  readonly host?: boolean;
  /** Why it is paused, shown in listings. */
  readonly note?: string;
}

export interface DisabledBody {
  readonly job: string;
  readonly host?: boolean;
  readonly note?: string;
}

export interface BackfillBody {
  /** ISO-8601 instants (with their offset) or epoch ms: the slots due in [from, to). */
  readonly from: string | number;
  readonly to: string | number;
}

export interface TickedBody {
  readonly job: string;
  readonly slot: number;
  readonly due: number;
  readonly skipped: number;
  readonly partition?: number;
  /** A manual `wow.schedule.Trigger` (slot 0), not a due slot. */
  readonly manual: boolean;
  /** A slot of a `wow.schedule.Backfill` (its slot: its place in the range, from 1). */
  readonly backfill?: boolean;
}

/** Why a tick runs. */
export function tickKind(body: TickedBody): "scheduled" | "manual" | "backfill" {
  return body.manual ? "manual" : body.backfill === true ? "backfill" : "scheduled";
}

/** `receive-deliveries#3` → job `receive-deliveries`, partition 3. */
export function parseInstanceId(id: string): { readonly job: string; readonly partition?: number } {
  const hash = id.lastIndexOf("#");
  if (hash < 0) return { job: id };
  const partition = Number(id.slice(hash + 1));
  return Number.isInteger(partition) && partition >= 0 && String(partition) === id.slice(hash + 1) ? { job: id.slice(0, hash), partition } : { job: id };
}

export function instanceId(job: string, partition?: number): string {
  return partition === undefined ? job : `${job}#${partition}`;
}
