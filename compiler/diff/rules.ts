// The rules of `wowc diff`: a stable ID per kind of change (buf-style), its category and what it
// means for a team reviewing the change. IDs never change meaning; new ones may be added.
//
// breaking  — clients, stored events or schedule instances stop working (exit 1 unless accepted)
// behaviour — the system does something else at run time (cron, zone, handlers, lists)
// safe      — additions and relaxations

export type Category = "breaking" | "behaviour" | "safe";

export interface RuleDefinition {
  readonly category: Category;
  readonly summary: string;
}

export const rules = {
  CONTEXT_NO_DELETE: { category: "breaking", summary: "A context was removed: its routes, commands and stored events are gone." },
  CONTEXT_NO_RENAME: { category: "breaking", summary: "A context was renamed: routes, qualified names and stored streams change." },
  AGGREGATE_NO_DELETE: { category: "breaking", summary: "An aggregate was removed: its routes and stored events are orphaned." },
  AGGREGATE_NO_RENAME: { category: "breaking", summary: "An aggregate was renamed: routes and stored streams change." },
  COMMAND_NO_DELETE: { category: "breaking", summary: "A command was removed: clients and pending schedules that send it fail." },
  COMMAND_NO_RENAME: { category: "breaking", summary: "A command was renamed: clients and pending schedules that send it fail." },
  EVENT_NO_DELETE: { category: "breaking", summary: "An event was removed: stored events of that type no longer decode." },
  EVENT_NO_RENAME: { category: "breaking", summary: "An event was renamed: stored events of the old name no longer decode." },
  FIELD_NO_DELETE: { category: "breaking", summary: "A field was removed from a command, event or type." },
  FIELD_NO_RENAME: { category: "breaking", summary: "A field was renamed: senders and stored events use the old name." },
  FIELD_SAME_TYPE: { category: "breaking", summary: "A field changed type." },
  FIELD_NO_OPTIONAL_TO_REQUIRED: { category: "breaking", summary: "An optional field became required: old senders and stored events lack it." },
  FIELD_NO_ADD_REQUIRED: { category: "breaking", summary: "A required field was added to a command, event or type: old senders and stored events lack it." },
  TYPE_NO_DELETE: { category: "breaking", summary: "A type that a command or event carried was removed." },
  ENUM_NO_DELETE: { category: "breaking", summary: "An enum was removed." },
  ENUM_VALUE_NO_DELETE: { category: "breaking", summary: "An enum value was removed: stored events holding it no longer decode." },
  ROUTE_SAME: { category: "breaking", summary: "A command's HTTP route (method or path) changed." },
  JOB_NO_DELETE: { category: "breaking", summary: "A job was removed: its schedule instance stops and its pending ticks are dropped." },
  JOB_NO_RENAME: { category: "breaking", summary: "A job was renamed: its schedule instance (keyed by name) starts over." },
  SUBSCRIPTION_NO_RENAME: {
    category: "breaking",
    summary:
      "The durable subscription of a job or saga handler (`<saga>.<function>`, one per partition when sharded) changed, by a renamed function or saga or a change of sharding: the new one reads from its own checkpoint, at the start, so past events and ticks are handled again.",
  },

  JOB_CRON_CHANGED: { category: "behaviour", summary: "A job's cron rule changed." },
  JOB_ZONE_CHANGED: { category: "behaviour", summary: "A job's time zone changed." },
  JOB_MISFIRE_CHANGED: { category: "behaviour", summary: "A job's misfire policy changed." },
  JOB_SCOPE_CHANGED: { category: "behaviour", summary: "A job's scope or sharding changed." },
  JOB_COMMANDS_CHANGED: { category: "behaviour", summary: "The commands a job sends changed." },
  JOB_RUNS_CHANGED: { category: "behaviour", summary: "How a job's runs go changed: its overlap policy, timeout or jitter." },
  RETRY_CHANGED: { category: "behaviour", summary: "The retry policy (`@Retry`) of a job or of a command's delivery by a timer changed." },
  SCHEDULES_CHANGED: { category: "behaviour", summary: "A handler's schedules list changed." },
  PRODUCES_CHANGED: { category: "behaviour", summary: "The events a command handler produces changed." },
  SAGA_COMMANDS_CHANGED: { category: "behaviour", summary: "The commands an event handler sends changed." },
  HANDLER_SERVICES_CHANGED: { category: "behaviour", summary: "The services a handler or job asks for changed: host implementations change." },
  HANDLER_BLOCKING_CHANGED: { category: "behaviour", summary: "A handler or job became blocking or non-blocking." },
  STATE_CHANGED: { category: "behaviour", summary: "An aggregate's state fields, or a type that only state holds (no command or event), changed or was removed: snapshots are rebuilt from events." },
  SAGA_REMOVED: { category: "behaviour", summary: "A saga was removed: its subscriptions stop." },
  EVENT_HANDLER_REMOVED: { category: "behaviour", summary: "An event handler was removed: its subscription stops." },
  REJECTION_HANDLER_REMOVED: { category: "behaviour", summary: "A rejection handler was removed." },
  SERVICE_REMOVED: { category: "behaviour", summary: "A service was removed: hosts no longer provide it." },

  CONTEXT_ADDED: { category: "safe", summary: "A context was added." },
  AGGREGATE_ADDED: { category: "safe", summary: "An aggregate was added." },
  COMMAND_ADDED: { category: "safe", summary: "A command was added." },
  EVENT_ADDED: { category: "safe", summary: "An event was added." },
  FIELD_ADDED: { category: "safe", summary: "An optional field (or a state field) was added." },
  FIELD_REQUIRED_TO_OPTIONAL: { category: "safe", summary: "A required field became optional." },
  TYPE_ADDED: { category: "safe", summary: "A type was added." },
  ENUM_ADDED: { category: "safe", summary: "An enum was added." },
  ENUM_VALUE_ADDED: { category: "safe", summary: "An enum value was added." },
  SERVICE_ADDED: { category: "safe", summary: "A service was added." },
  SAGA_ADDED: { category: "safe", summary: "A saga was added." },
  EVENT_HANDLER_ADDED: { category: "safe", summary: "An event handler was added." },
  REJECTION_HANDLER_ADDED: { category: "safe", summary: "A rejection handler was added." },
  JOB_ADDED: { category: "safe", summary: "A job was added." },
} as const satisfies Record<string, RuleDefinition>;

export type RuleId = keyof typeof rules;

export const categoryOrder: readonly Category[] = ["breaking", "behaviour", "safe"];
