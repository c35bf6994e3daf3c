// Test kit (`import … from "wowc/testing"`).
export { VirtualClock } from "./virtual-clock.js";
export { aggregateSpec, AggregateSpec, SpecOutcome, type AggregateSpecOptions, type ExpectedSchedule } from "./aggregate-spec.js";
export { scheduleSpec, ScheduleSpec, type ScheduleSpecOptions, type SentCommand } from "./schedule-spec.js";
