// Test kit (`import … from "wowc/testing"`).
export { VirtualClock, type VirtualClockOptions } from "./virtual-clock.js";
export { storeOnClock } from "./store-on-clock.js";
export { aggregateSpec, AggregateSpec, SpecOutcome, type AggregateSpecOptions, type ExpectedSchedule, type SpecSchedule } from "./aggregate-spec.js";
export { scheduleSpec, ScheduleSpec, type DerivedCommands, type EnableOptions, type ScheduleSpecOptions, type SentCommand, type ServiceCall } from "./schedule-spec.js";
