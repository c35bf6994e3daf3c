/** An event body with its fully qualified type, as a handler decides it. */
export interface EventDraft<B = unknown> {
  readonly type: string;
  readonly body: B;
}

/** What a command handler returns: nothing happens (no-op), or these events. */
export type Decision =
  | { readonly kind: "noop" }
  | { readonly kind: "events"; readonly events: readonly EventDraft[] };

const NO_OP: Decision = Object.freeze({ kind: "noop" });

export const Decision = {
  noOp: NO_OP,
  events(...events: EventDraft[]): Decision {
    return events.length === 0 ? NO_OP : { kind: "events", events };
  },
};

export function eventsOf(decision: Decision): readonly EventDraft[] {
  return decision.kind === "events" ? decision.events : [];
}
