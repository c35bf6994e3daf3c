// The built-in aggregate `<context>.schedule`: one instance per job (id = job name; `<job>#<partition>`
// for sharded jobs; one per tenant for TENANT jobs). It sets itself a cron timer whose delivered
// command commits a `wow.schedule.Ticked` per due slot: the timer service is the one mechanism.
import { DEFAULT_TENANT } from "../model/aggregate-ref.js";
import { Decision } from "../model/decision.js";
import { ErrorCodes, reject } from "../model/errors.js";
import type { CommandMessage } from "../model/messages.js";
import type { AggregateRegistration, CommandRegistration } from "../model/registration.js";
import type { SagaJobRegistration } from "../model/saga-registration.js";
import { ScheduleRule } from "../model/schedule-rule.js";
import { SystemEvents, type ScheduleSetBody } from "../model/system-events.js";
import {
  JobCommands,
  JobEvents,
  parseInstanceId,
  SCHEDULE_AGGREGATE,
  TICK_KEY,
  MAX_BACKFILL_SLOTS,
  MAX_NOTE_LENGTH,
  type BackfillBody,
  type DisableBody,
  type DisabledBody,
  type EnableBody,
  type EnabledBody,
  type JobRule,
  type RuleBody,
  type TickedBody,
} from "./job-messages.js";
import { hasRule, ruleFrom, sameRule } from "./job-rules.js";
import type { CronNext } from "../cron/cron-next.js";
import { toEpochMs } from "../model/schedule-rule.js";

export interface JobInstanceState {
  readonly job?: string;
  readonly enabled: boolean;
  /** Disabled by an operator (not by the host's config): the host's start does not re-enable it. */
  readonly disabledByOperator: boolean;
  readonly rule?: JobRule;
  readonly own: boolean;
  readonly partition?: number;
  /** The current tick timer and the last slot it ticked. */
  readonly timer?: string;
  readonly lastSlot: number;
  /** An operator's pause: its note and when (epoch ms). */
  readonly paused?: { readonly note: string; readonly at: number };
}

export interface ScheduleAggregateOptions {
  readonly context: string;
  readonly jobs: readonly SagaJobRegistration[];
  /** The host's rule of a job (declaration + config). */
  readonly hostRule: (job: SagaJobRegistration) => JobRule;
  /** How many journal partitions there are: a sharded job's instances are `<job>#0` to `<job>#<partitions - 1>`. */
  readonly partitions: number;
  readonly cronNext: CronNext;
}

export function scheduleAggregate(options: ScheduleAggregateOptions): AggregateRegistration<JobInstanceState> {
  const jobs = new Map(options.jobs.map((job) => [job.name, job]));

  /** The job an instance id names, checked against its declaration (scope, sharding). */
  /**
   * The job an instance id names, checked against its declaration (scope, sharding, partitions). An
   * instance left over from an earlier shape of its job (sharded then, or beyond a partition count
   * since lowered) can still be disabled (`orphanOk`), and nothing else.
   */
  const jobOf = (command: CommandMessage, orphanOk = false): { job: SagaJobRegistration; partition?: number } => {
    const { job: name, partition } = parseInstanceId(command.aggregate.id);
    const job = jobs.get(name);
    if (!job) reject(ErrorCodes.NotFound, `no job ${name} in ${options.context}`);
    if (!orphanOk && job.sharded !== (partition !== undefined)) {
      reject(ErrorCodes.IllegalArgument, job.sharded ? `job ${name} is sharded: its instances are ${name}#<partition>` : `job ${name} is not sharded`);
    }
    if (!orphanOk && partition !== undefined && partition >= options.partitions) {
      reject(ErrorCodes.NotFound, `job ${name} has ${options.partitions} partition${options.partitions === 1 ? "" : "s"}: its instances are ${name}#0 to ${name}#${options.partitions - 1}`);
    }
    if (job.scope === "SYSTEM" && command.aggregate.tenantId !== DEFAULT_TENANT) {
      reject(ErrorCodes.IllegalArgument, `job ${name} is a SYSTEM job: it runs in the default tenant only`);
    }
    return partition === undefined ? { job } : { job, partition };
  };

  const body = <B>(command: CommandMessage): B => {
    const b = command.body ?? {};
    if (typeof b !== "object" || Array.isArray(b)) reject(ErrorCodes.CommandValidation, "the body must be a JSON object");
    return b as B;
  };

  const tickCommand = { type: JobCommands.Tick, body: {} };

  const commands: Record<string, CommandRegistration<JobInstanceState>> = {
    [JobCommands.Enable]: {
      decide(state, command, scope) {
        const { job, partition } = jobOf(command);
        const b = body<EnableBody>(command);
        if (b.host === true && !state.enabled && state.disabledByOperator) return Decision.noOp;
        const host = options.hostRule(job);
        const own = hasRule(b) || state.own;
        const rule = hasRule(b) ? ruleFrom(b, state.own && state.rule ? state.rule : host) : state.own && state.rule ? state.rule : host;
        if (state.enabled && sameRule(state.rule, rule)) return Decision.noOp;
        scope.schedule(TICK_KEY, ScheduleRule.cron(rule.expression, rule.zone, rule.misfire), tickCommand);
        const enabled: EnabledBody = partition === undefined ? { job: job.name, rule, own } : { job: job.name, rule, own, partition };
        return Decision.events({ type: JobEvents.Enabled, body: enabled });
      },
    },
    [JobCommands.Reschedule]: {
      existing: true,
      decide(state, command, scope) {
        const { job } = jobOf(command);
        const b = body<RuleBody>(command);
        if (!hasRule(b)) reject(ErrorCodes.CommandValidation, "reschedule needs an expression, a zone or a misfire policy");
        const rule = ruleFrom(b, state.rule ?? options.hostRule(job));
        if (state.enabled) scope.schedule(TICK_KEY, ScheduleRule.cron(rule.expression, rule.zone, rule.misfire), tickCommand);
        return Decision.events({ type: JobEvents.Rescheduled, body: { job: job.name, rule, own: true } });
      },
    },
    [JobCommands.Disable]: {
      existing: true,
      decide(state, command, scope) {
        const { job } = jobOf(command, true);
        const b = body<DisableBody>(command);
        if (b.note !== undefined && (typeof b.note !== "string" || b.note.length > MAX_NOTE_LENGTH)) {
          reject(ErrorCodes.CommandValidation, `note must be a string of at most ${MAX_NOTE_LENGTH} characters`);
        }
        if (!state.enabled) return Decision.noOp;
        scope.cancelSchedule(TICK_KEY);
        const disabled: DisabledBody = { job: job.name, host: b.host === true, ...(b.note === undefined ? {} : { note: b.note }) };
        return Decision.events({ type: JobEvents.Disabled, body: disabled });
      },
    },
    [JobCommands.Backfill]: {
      existing: true,
      decide(state, command, scope) {
        const { job, partition } = jobOf(command);
        const b = body<Partial<BackfillBody>>(command);
        const from = instantField(b.from, "from");
        const to = instantField(b.to, "to");
        if (from >= to) reject(ErrorCodes.CommandValidation, "from must be before to: the range is [from, to)");
        if (to > scope.now) reject(ErrorCodes.CommandValidation, `to is after now (${new Date(scope.now).toISOString()}): a backfill runs past slots; later ones run when they come due`);
        const rule = state.rule ?? options.hostRule(job);
        const dues: number[] = [];
        for (let due = options.cronNext(rule.expression, rule.zone, from - 1, to); due !== undefined && due < to; due = options.cronNext(rule.expression, rule.zone, due, to)) {
          if (dues.length === MAX_BACKFILL_SLOTS) reject(ErrorCodes.CommandValidation, `the range holds more than ${MAX_BACKFILL_SLOTS} slots of '${rule.expression}': backfill it in shorter ranges`);
          dues.push(due);
        }
        if (dues.length === 0) reject(ErrorCodes.CommandValidation, `'${rule.expression}' (${rule.zone}) has no slot in that range`);
        const ticks = dues.map((due, i): TickedBody => ({ job: job.name, slot: i + 1, due, skipped: 0, manual: false, backfill: true, ...(partition === undefined ? {} : { partition }) }));
        return Decision.events(...ticks.map((ticked) => ({ type: JobEvents.Ticked, body: ticked })));
      },
    },
    [JobCommands.Trigger]: {
      existing: true,
      decide(state, command, scope) {
        const { job, partition } = jobOf(command);
        if (Object.keys(body<object>(command)).length > 0) reject(ErrorCodes.CommandValidation, "wow.schedule.Trigger runs the job now and takes no fields: to run past slots, send wow.schedule.Backfill with {from, to}");
        const ticked: TickedBody = { job: job.name, slot: 0, due: scope.now, skipped: 0, manual: true, ...(partition === undefined ? {} : { partition }) };
        return Decision.events({ type: JobEvents.Ticked, body: ticked });
      },
    },
    [JobCommands.Tick]: {
      existing: true,
      decide(state, command) {
        const { job, partition } = jobOf(command);
        const schedule = command.schedule;
        if (!schedule) reject(ErrorCodes.IllegalArgument, "a tick comes from the instance's own timer");
        if (!state.enabled || state.timer !== schedule.timer) reject(ErrorCodes.IllegalState, "a stale tick: the instance was disabled or rescheduled");
        const skipped = Math.max(0, schedule.slot - state.lastSlot - 1);
        const ticked: TickedBody = { job: job.name, slot: schedule.slot, due: schedule.due, skipped, manual: false, ...(partition === undefined ? {} : { partition }) };
        return Decision.events({ type: JobEvents.Ticked, body: ticked });
      },
    },
  };

  return {
    context: options.context,
    aggregate: SCHEDULE_AGGREGATE,
    hasCreateCommand: false,
    // An instance ticks for ever: a decision folds the events since the latest snapshot, not every tick since it was enabled.
    snapshots: { every: 64 },
    initialState: () => ({ enabled: false, disabledByOperator: false, own: false, lastSlot: 0 }),
    commands,
    events: {
      [JobEvents.Enabled]: (state, event) => {
        const b = event.body as EnabledBody;
        const { paused: _paused, ...rest } = state;
        return { ...rest, job: b.job, enabled: true, disabledByOperator: false, rule: b.rule, own: b.own, ...(b.partition === undefined ? {} : { partition: b.partition }) };
      },
      [JobEvents.Rescheduled]: (state, event) => {
        const b = event.body as EnabledBody;
        return { ...state, job: b.job, rule: b.rule, own: true };
      },
      [JobEvents.Disabled]: (state, event) => {
        const b = event.body as DisabledBody;
        const operator = b.host !== true;
        return { ...state, enabled: false, disabledByOperator: operator, ...(operator ? { paused: { note: b.note ?? "", at: event.createdAt } } : {}) };
      },
      [JobEvents.Ticked]: (state, event) => {
        const b = event.body as TickedBody;
        return b.manual || b.backfill === true ? state : { ...state, lastSlot: b.slot };
      },
      [SystemEvents.ScheduleSet]: (state, event) => {
        const b = event.body as ScheduleSetBody;
        return b.key === TICK_KEY ? { ...state, timer: b.timer, lastSlot: 0 } : state;
      },
      [SystemEvents.ScheduleCancelled]: (state, event) => {
        const b = event.body as { key: string };
        if (b.key !== TICK_KEY) return state;
        const { timer: _timer, ...rest } = state;
        return rest;
      },
    },
  };
}

/** A backfill's bound: an ISO-8601 instant with its offset, or epoch ms. */
function instantField(value: unknown, field: string): number {
  if (value === undefined) reject(ErrorCodes.CommandValidation, `${field} is required: an ISO-8601 instant such as 2026-11-30T00:00:00Z`);
  if (typeof value !== "string" && typeof value !== "number") reject(ErrorCodes.CommandValidation, `${field} must be an ISO-8601 instant or epoch milliseconds`);
  try {
    return toEpochMs(value);
  } catch (error) {
    return reject(ErrorCodes.CommandValidation, `${field}: ${(error as Error).message}`);
  }
}
