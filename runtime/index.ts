// Public runtime API (`import … from "wowc/runtime"`). Imports nothing from compiler/.
export {};

// Runtime core (issue 4): model, clock, journal, command processing, timers, host.
export { aggregateRef, sameRef, refKey, DEFAULT_TENANT, type AggregateRef, type TargetRef } from "./model/aggregate-ref.js";
export { commandMessage, contextOfType, type Causation, type CommandDraft, type CommandMessage, type CommandOptions, type EventMessage, type ScheduleInfo } from "./model/messages.js";
export { Decision, eventsOf, type EventDraft } from "./model/decision.js";
export { parseDuration, DurationSyntaxError, type DurationInput } from "./model/duration.js";
export { ScheduleRule, toEpochMs, type InstantInput, type Misfire } from "./model/schedule-rule.js";
export { CommandRejected, ErrorCodes, reject, isRejection } from "./model/errors.js";
export type { DecideScope, ScheduleChange } from "./model/decide-scope.js";
export { hasCreateCommand, type AggregateRegistration, type CommandRegistration, type EventApplier, type Services } from "./model/registration.js";
export type { CommandRejection, JobCommand, JobContext, SagaCommand, SagaContext, SagaEventRegistration, SagaJobRegistration, SagaRegistration, SagaRejectionRegistration, ScheduleTick } from "./model/saga-registration.js";
export * from "./config/index.js";
export type { CommandOutcome, CommandResult } from "./model/command-result.js";
export { SystemEvents, isSystemEvent, type ScheduleCancelledBody, type ScheduleSetBody } from "./model/system-events.js";
export { systemClock, type Clock } from "./clock.js";
export {
  DuplicateRequestError,
  VersionConflictError,
  type AppendResult,
  type Commit,
  type Journal,
  type RequestRecord,
  type StoredStream,
  type TimerChange,
  type TimerRow,
  type TimerSettlement,
  type TimerSpec,
  type TimerStatus,
} from "./journal/journal.js";
export { MemoryJournal } from "./journal/memory-journal.js";
export { SqliteJournal, type SqliteJournalOptions } from "./journal/sqlite-journal.js";
export { SCHEMA_VERSION } from "./journal/sqlite-schema.js";
export { CommandProcessor, replay, type CommandProcessorOptions, type CommandSender } from "./processing/command-processor.js";
export { TimerService, type Delivery, type TimerServiceOptions } from "./timers/timer-service.js";
export { TIMER_DEFAULTS, resolveTimerOptions, type ResolvedTimerOptions, type TimerOptions } from "./timers/timer-options.js";
export { slotRequestId } from "./timers/scheduled-command.js";
export { cronNext, type CronNext } from "./timers/cron-next.js";
export { Host, type HostOptions } from "./host.js";
export * from "./cron/index.js";

// Sagas, subscriptions, jobs, the full host and its HTTP API (issue 6).
export { createHost, WowHost, type CreateHostOptions, type Registration } from "./hosting/create-host.js";
export { SubscriptionService, type Subscription, type SubscriptionOptions, type SubscriptionServiceOptions } from "./subscriptions/subscription-service.js";
export { parkedId, type ParkedEvent, type SubscriptionStore } from "./subscriptions/subscription-store.js";
export { MemorySubscriptionStore } from "./subscriptions/memory-subscription-store.js";
export { SqliteSubscriptionStore } from "./subscriptions/sqlite-subscription-store.js";
export { derivedRequestId } from "./sagas/saga-requests.js";
export { SystemCommands, type CancelScheduleBody, type ScheduleCommandBody } from "./processing/system-commands.js";
export { JobCommands, JobEvents, SCHEDULE_AGGREGATE, instanceId, parseInstanceId, type JobRule, type TickedBody } from "./jobs/job-messages.js";
export { singleHostOwnership, type PartitionOwnership } from "./jobs/partition-ownership.js";
export type { JobInstanceView } from "./jobs/job-manager.js";
export type { JobInstanceState, JobRun } from "./jobs/schedule-aggregate.js";
export { createRequestListener, type HttpOptions, type RequestListener } from "./http/request-listener.js";
export { commandRoutes, type CommandRoute as HttpCommandRoute } from "./http/routes.js";
export { commandRoute, snakeCase, type CommandRoute, type HttpMethod } from "./model/command-route.js";
