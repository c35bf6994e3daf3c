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
  type DisabledBody,
  type EnableBody,
  type EnabledBody,
  type JobRule,
  type RuleBody,
  type TickedBody,
} from "./job-messages.js";
import { hasRule, ruleFrom, sameRule } from "./job-rules.js";

/** A tick as the instance remembers it (the last few are listed as "last runs"). */
export interface JobTick extends TickedBody {
  readonly at: number;
}

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
  readonly runs: readonly JobTick[];
}

export const RUNS_KEPT = 10;

export interface ScheduleAggregateOptions {
  readonly context: string;
  readonly jobs: readonly SagaJobRegistration[];
  /** The host's rule of a job (declaration + config). */
  readonly hostRule: (job: SagaJobRegistration) => JobRule;
  /** How many journal partitions there are: a sharded job's instances are `<job>#0` to `<job>#<partitions - 1>`. */
  readonly partitions: number;
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
        const b = body<{ host?: boolean }>(command);
        if (!state.enabled) return Decision.noOp;
        scope.cancelSchedule(TICK_KEY);
        const disabled: DisabledBody & { host: boolean } = { job: job.name, host: b.host === true };
        return Decision.events({ type: JobEvents.Disabled, body: disabled });
      },
    },
    [JobCommands.Trigger]: {
      existing: true,
      decide(state, command, scope) {
        const { job, partition } = jobOf(command);
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
    initialState: () => ({ enabled: false, disabledByOperator: false, own: false, lastSlot: 0, runs: [] }),
    commands,
    events: {
      [JobEvents.Enabled]: (state, event) => {
        const b = event.body as EnabledBody;
        return { ...state, job: b.job, enabled: true, disabledByOperator: false, rule: b.rule, own: b.own, ...(b.partition === undefined ? {} : { partition: b.partition }) };
      },
      [JobEvents.Rescheduled]: (state, event) => {
        const b = event.body as EnabledBody;
        return { ...state, job: b.job, rule: b.rule, own: true };
      },
      [JobEvents.Disabled]: (state, event) => {
        const b = event.body as { host?: boolean };
        return { ...state, enabled: false, disabledByOperator: b.host !== true };
      },
      [JobEvents.Ticked]: (state, event) => {
        const b = event.body as TickedBody;
        const runs = [...state.runs, { ...b, at: event.createdAt }].slice(-RUNS_KEPT);
        return b.manual ? { ...state, runs } : { ...state, lastSlot: b.slot, runs };
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
